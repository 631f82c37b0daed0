import type { CreditPool } from '@allot/domain/credits';
import { APP_MSG } from '@allot/domain/messages';
import { type Permission, permissionsOf, ROLES } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam, uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import {
  organizationsActedOn as actedOn,
  organizationsBelow as below,
  lowerIds,
} from '../organization-access';
import { memberAccountIds } from './journal';

/** An organization taking part in a move, with the ids of its two pool accounts. */
export interface OrganizationParty {
  id: string;
  name: string;
  shared: string;
  protected: string;
}

/** A person taking part in a move, with the id of their balance. */
export interface UserParty {
  id: string;
  name: string;
  account: string;
}

export function poolAccount(org: OrganizationParty, pool: CreditPool): string {
  return pool === 'shared' ? org.shared : org.protected;
}

/** An organization `o` as a party: its id, name and the ids of its two pool accounts. */
const partyColumns = sql`o.id, o.name,
  (select a.id from credit_accounts a where a.organization_id = o.id and a.kind = 'shared') as shared,
  (select a.id from credit_accounts a where a.organization_id = o.id and a.kind = 'protected') as protected`;

/** The organizations a caller moves credits of, with `permission`, as parties (organization-access). */
export function organizationsActedOn(
  tx: Tx,
  user: AuthUser,
  ids: readonly string[],
  permission: Permission,
): Promise<OrganizationParty[]> {
  return actedOn<OrganizationParty>(tx, user, ids, permission, partyColumns);
}

/** `organizationsActedOn` for one organization. */
export async function organizationActedOn(
  tx: Tx,
  user: AuthUser,
  id: string,
  permission: Permission,
): Promise<OrganizationParty> {
  const [org] = await organizationsActedOn(tx, user, [id], permission);
  return org as OrganizationParty;
}

/** Organizations strictly below `ancestor`, as parties (organization-access: `403` / `404` outside). */
export function organizationsBelow(
  tx: Tx,
  user: AuthUser,
  ancestor: OrganizationParty,
  ids: readonly string[],
  notBelowMessage: string,
): Promise<OrganizationParty[]> {
  return below<OrganizationParty>(tx, user, ancestor.id, ids, notBelowMessage, partyColumns);
}

/** Roles that may move credits of people (those with `manage_users`). */
const USER_MANAGERS = ROLES.filter((role) => permissionsOf(role).includes('manage_users'));

/**
 * People of one organization, in the order asked, each with their balance in it (CONTRACT §5: credits per
 * membership): its members by their user id, and the people invited to it by their invitation's id, as the
 * users list names them (CONTRACT §6: credits may go to a pending member and wait on that membership until it is
 * accepted; the journal holds the invitation while they arrive, CR008). `404` for anyone else.
 */
export async function membersOf(
  tx: Tx,
  organization: OrganizationParty,
  ids: readonly string[],
): Promise<UserParty[]> {
  const lowered = lowerIds(ids);
  const found = await rows<{ id: string; user_id: string; name: string }>(
    tx,
    sql`select u.id, u.id as user_id, u.name from memberships m join users u on u.id = m.user_id
        where m.organization_id = ${organization.id} and m.user_id in ${uuidsIn(lowered)}
        union all
        select i.id, i.user_id, i.invited_name from membership_invitations i
        where i.organization_id = ${organization.id} and i.id in ${uuidsIn(lowered)}
          and not exists (select 1 from memberships m where m.organization_id = i.organization_id and m.user_id = i.user_id)`,
  );
  const byId = new Map(found.map((u) => [u.id, u]));
  if (byId.size !== lowered.length) throw AppError.notFound();
  const people = lowered.map((id) => byId.get(id) as { id: string; user_id: string; name: string });
  const accounts = await memberAccountIds(
    tx,
    organization.id,
    people.map((p) => p.user_id),
  );
  return people.map((p, i) => ({ id: p.id, name: p.name, account: accounts[i] as string }));
}

/**
 * The organization of a transfer between two people that names none (CONTRACT §5): the one organization both are
 * members of where the caller's effective role has `manage_users` (a system admin: any). None: `404` (the caller
 * may not learn where else they belong); several: `400` on `organizationId`, with their names.
 */
export async function organizationOfBoth(
  tx: Tx,
  user: AuthUser,
  sourceUserId: string,
  targetUserId: string,
): Promise<string> {
  const [source, target] = lowerIds([sourceUserId, targetUserId]) as [string, string];
  const found = await rows<{ id: string; name: string }>(
    tx,
    sql`select o.id, o.name from memberships s
        join memberships t on t.organization_id = s.organization_id and t.user_id = ${target}
        join organizations o on o.id = s.organization_id and o.deleted_at is null
        where s.user_id = ${source} ${
          user.isSystemAdmin
            ? sql``
            : sql`and exists (
                select 1 from organization_closure c
                join memberships mine on mine.organization_id = c.ancestor_id and mine.user_id = ${user.userId}
                where c.descendant_id = o.id
                  and mine.role in (select value from json_array_elements_text(${jsonParam(USER_MANAGERS)})))`
        }
        order by o.name, o.id`,
  );
  const [only, ...others] = found;
  if (!only) throw AppError.notFound();
  if (others.length > 0) {
    throw AppError.of('invalid_input', APP_MSG.transferOrganizationAmbiguous, {
      fields: { organizationId: APP_MSG.transferOrganizationAmbiguous },
      organizations: found,
    });
  }
  return only.id;
}
