import type { Permission } from '@allot/domain/roles';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsAny } from '../../db/json-params';
import { preparedRows } from '../../db/prepared-rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { accessFromRoles, requireOrganizationAccess, rolesHeldSql } from './access';

/**
 * The organizations a write acts on, read with their access in the same query (credits and licences move
 * between them). `columns` are what the caller needs of each organization `o`; by default its id and name.
 * Prepared statements (db/prepared-rows.ts): planning these cost PostgreSQL more than running them (a
 * transfer's parties: 0.26 ms of planning, 0.11 ms of running). Their texts come from a bounded set: one or
 * two ids acted on, the ids below as one parameter, a column list per caller.
 */

const NAMED = sql`o.id, o.name`;

/** Ids as the database has them; one that is no uuid names no organization (`404`). */
export function lowerIds(ids: readonly string[]): string[] {
  const lowered = ids.map((id) => id.toLowerCase());
  if (!lowered.every(isUuid)) throw AppError.notFound();
  return lowered;
}

/**
 * The organizations a caller acts on with `permission`, in the order asked (`404` for one it cannot see,
 * `403` for one it can see without the permission): one round trip for all.
 */
export async function organizationsActedOn<T extends { id: string }>(
  tx: Tx,
  user: AuthUser,
  ids: readonly string[],
  permission: Permission,
  columns: SQL = NAMED,
): Promise<T[]> {
  const lowered = lowerIds(ids);
  const roles = sql`case o.id ${sql.join(
    lowered.map((id) => sql`when ${id}::uuid then ${rolesHeldSql(user, id)}`),
    sql` `,
  )} end`;
  const found = await preparedRows<T & { roles: string[] }>(
    tx,
    sql`select ${columns}, ${roles} as roles
        from organizations o where o.id = ${uuidsAny(lowered)} and o.deleted_at is null`,
  );
  const byId = new Map(found.map((o) => [o.id, o]));
  return lowered.map((id) => {
    const org = byId.get(id);
    accessFromRoles(org?.roles, [permission]);
    const { roles: _, ...organization } = org as T & { roles: string[] };
    return organization as unknown as T;
  });
}

/**
 * Organizations strictly below `ancestorId` (CONTRACT §2: credits and seats move down the hierarchy and back).
 * A caller who manages the ancestor manages all of them; one that is not below it is a `403` when the caller
 * can see it (it may not move things that way) and a `404` when it cannot.
 */
export async function organizationsBelow<T extends { id: string }>(
  tx: Tx,
  user: AuthUser,
  ancestorId: string,
  ids: readonly string[],
  notBelowMessage: string,
  columns: SQL = NAMED,
): Promise<T[]> {
  const lowered = lowerIds(ids);
  const below = await preparedRows<T>(
    tx,
    sql`select ${columns} from organization_closure c join organizations o on o.id = c.descendant_id
        where c.ancestor_id = ${ancestorId} and c.depth > 0 and c.descendant_id = ${uuidsAny(lowered)}
          and o.deleted_at is null`,
  );
  const byId = new Map(below.map((o) => [o.id, o]));
  const outside = lowered.find((id) => !byId.has(id));
  if (outside) {
    await requireOrganizationAccess(tx, user, outside);
    throw AppError.forbidden(notBelowMessage);
  }
  return lowered.map((id) => byId.get(id) as T);
}
