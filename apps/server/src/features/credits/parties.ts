import type { CreditPool } from '@allot/domain/credits';
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
} from '../organization-access/acted-on';

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

/** Credit accounts of these people, opened at 0 for those who have none yet, in the order asked. */
async function userParties(tx: Tx, people: { id: string; name: string }[]): Promise<UserParty[]> {
  const ids = people.map((p) => p.id);
  await tx.execute(sql`insert into credit_accounts (kind, user_id)
    select 'user', value::uuid from json_array_elements_text(${jsonParam(ids)})
    on conflict do nothing`);
  const accounts = await rows<{ id: string; user_id: string }>(
    tx,
    sql`select id, user_id from credit_accounts where user_id in ${uuidsIn(ids)}`,
  );
  const accountOf = new Map(accounts.map((a) => [a.user_id, a.id]));
  return people.map((p) => ({ ...p, account: accountOf.get(p.id) as string }));
}

/** Members of one organization (joined, not invited), in the order asked; `404` for anyone else. */
export async function membersOf(
  tx: Tx,
  organization: OrganizationParty,
  ids: readonly string[],
): Promise<UserParty[]> {
  const lowered = lowerIds(ids);
  const found = await rows<{ id: string; name: string }>(
    tx,
    sql`select u.id, u.name from memberships m join users u on u.id = m.user_id
        where m.organization_id = ${organization.id} and m.user_id in ${uuidsIn(lowered)}`,
  );
  const byId = new Map(found.map((u) => [u.id, u]));
  if (byId.size !== lowered.length) throw AppError.notFound();
  return userParties(
    tx,
    lowered.map((id) => byId.get(id) as { id: string; name: string }),
  );
}

/**
 * A person whose credits the caller may move: a member of an organization where the caller's effective
 * role has `manage_users` (a system admin: any account). Anyone else is a `404`.
 */
export async function managedUser(tx: Tx, user: AuthUser, id: string): Promise<UserParty> {
  const [lowered] = lowerIds([id]) as [string];
  const [person] = await rows<{ id: string; name: string }>(
    tx,
    user.isSystemAdmin
      ? sql`select id, name from users where id = ${lowered}`
      : sql`select u.id, u.name from users u where u.id = ${lowered} and exists (
          select 1 from memberships m
          join organization_closure c on c.descendant_id = m.organization_id
          join organizations o on o.id = m.organization_id and o.deleted_at is null
          join memberships mine on mine.organization_id = c.ancestor_id and mine.user_id = ${user.userId}
          where m.user_id = u.id and mine.role in (select value from json_array_elements_text(${jsonParam(USER_MANAGERS)})))`,
  );
  if (!person) throw AppError.notFound();
  const [party] = await userParties(tx, [person]);
  return party as UserParty;
}
