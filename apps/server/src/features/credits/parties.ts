import type { CreditPool } from '@allot/domain/credits';
import { type Permission, permissionsOf, ROLES } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam, uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { accessFromRoles, requireOrganizationAccess, rolesHeldSql } from '../organization-access/access';

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

function lowerIds(ids: readonly string[]): string[] {
  const lowered = ids.map((id) => id.toLowerCase());
  if (!lowered.every(isUuid)) throw AppError.notFound();
  return lowered;
}

/** An organization `o` as a party: its id, name and the ids of its two pool accounts. */
const partyColumns = sql`o.id, o.name,
  (select a.id from credit_accounts a where a.organization_id = o.id and a.kind = 'shared') as shared,
  (select a.id from credit_accounts a where a.organization_id = o.id and a.kind = 'protected') as protected`;

/**
 * The organizations a caller acts on with `permission`, in the order asked (`404` for one it cannot see,
 * `403` for one it can see without the permission): the access checks ride on the query that reads them,
 * one round trip for all.
 */
export async function organizationsActedOn(
  tx: Tx,
  user: AuthUser,
  ids: readonly string[],
  permission: Permission,
): Promise<OrganizationParty[]> {
  const lowered = lowerIds(ids);
  const roles = sql`case o.id ${sql.join(
    lowered.map((id) => sql`when ${id}::uuid then ${rolesHeldSql(user, id)}`),
    sql` `,
  )} end`;
  const found = await rows<OrganizationParty & { roles: string[] }>(
    tx,
    sql`select ${partyColumns}, ${roles} as roles
        from organizations o where o.id in ${uuidsIn(lowered)} and o.deleted_at is null`,
  );
  const byId = new Map(found.map((o) => [o.id, o]));
  return lowered.map((id) => {
    const org = byId.get(id);
    accessFromRoles(org?.roles, [permission]);
    const { roles: _, ...party } = org as OrganizationParty & { roles: string[] };
    return party;
  });
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

/**
 * Organizations strictly below `ancestor` (CONTRACT §2: credits move down the hierarchy and back). A caller
 * who manages the ancestor manages all of them; one that is not below it is a `403` when the caller can see
 * it (it may not move credits that way) and a `404` when it cannot.
 */
export async function organizationsBelow(
  tx: Tx,
  user: AuthUser,
  ancestor: OrganizationParty,
  ids: readonly string[],
  notBelowMessage: string,
): Promise<OrganizationParty[]> {
  const lowered = lowerIds(ids);
  const below = await rows<OrganizationParty>(
    tx,
    sql`select ${partyColumns} from organization_closure c join organizations o on o.id = c.descendant_id
        where c.ancestor_id = ${ancestor.id} and c.depth > 0 and c.descendant_id in ${uuidsIn(lowered)}
          and o.deleted_at is null`,
  );
  const byId = new Map(below.map((o) => [o.id, o]));
  const outside = lowered.find((id) => !byId.has(id));
  if (outside) {
    await requireOrganizationAccess(tx, user, outside);
    throw AppError.forbidden(notBelowMessage);
  }
  return lowered.map((id) => byId.get(id) as OrganizationParty);
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
