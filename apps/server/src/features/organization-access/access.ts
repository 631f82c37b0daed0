import {
  hasPanelAccess,
  hasPermissions,
  isRole,
  type Permission,
  permissionsOf,
  type Role,
  strongestRole,
} from '@allot/domain/roles';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';

/**
 * The roles that reach an organization, as a SQL expression (text[]) to select inside a read's own query,
 * so that checking access costs no round trip of its own: a system admin's on any live organization, else
 * those the caller holds on it or on any ancestor (one indexed lookup through the closure table). Empty
 * when the organization does not exist or the caller holds nothing above it. An id that is no uuid names
 * no organization: `404` before any query.
 */
export function rolesHeldSql(user: AuthUser, organizationId: string): SQL {
  if (!isUuid(organizationId)) throw AppError.notFound();
  if (user.isSystemAdmin) {
    return sql`(select case when exists (
        select 1 from organizations where id = ${organizationId} and deleted_at is null)
      then array['system_admin'] else array[]::text[] end)`;
  }
  return sql`(select coalesce(array_agg(m.role::text), array[]::text[]) from organization_closure c
    join memberships m on m.organization_id = c.ancestor_id and m.user_id = ${user.userId}
    where c.descendant_id = ${organizationId})`;
}

/**
 * `rolesHeldSql` for a caller given as SQL (parameters, or the columns of the session a read looks up itself:
 * `sessionInQuery`, http/authenticate.ts), the system admin's case decided by PostgreSQL; every value a
 * parameter, so that the text is the same for every caller (`preparedRead`, db/prepared-rows.ts). Empty when
 * the caller's columns are null (no live session). The caller checks first that the id is a uuid.
 */
export function rolesHeldByCallerSql(caller: { userId: SQL; isSystemAdmin: SQL }, organizationId: SQL): SQL {
  return sql`(case when ${caller.isSystemAdmin} then (select case when exists (
        select 1 from organizations where id = ${organizationId} and deleted_at is null)
      then array['system_admin'] else array[]::text[] end)
    else (select coalesce(array_agg(m.role::text), array[]::text[]) from organization_closure c
      join memberships m on m.organization_id = c.ancestor_id and m.user_id = ${caller.userId}
      where c.descendant_id = ${organizationId}) end)`;
}

export interface OrganizationAccess {
  role: Role;
  permissions: Permission[];
}

/**
 * Guards every call that names an organization, given the roles `rolesHeldSql` read: `404` when the
 * caller cannot see it (unknown id, another tenant, or only a teacher there), `403` when it can see it but
 * lacks a required permission.
 */
export function accessFromRoles(
  held: readonly string[] | null | undefined,
  required: readonly Permission[] = [],
): OrganizationAccess {
  const role = strongestRole((held ?? []).filter(isRole));
  if (!hasPanelAccess(role) || role === null) throw AppError.notFound();
  const permissions = permissionsOf(role);
  if (!hasPermissions(required, { role, permissions })) throw AppError.forbidden();
  return { role, permissions };
}

/** `rolesHeldSql` as a query of its own. */
async function rolesHeld(db: Tx, user: AuthUser, organizationId: string): Promise<string[]> {
  const [row] = await preparedRows<{ roles: string[] }>(
    db,
    sql`select ${rolesHeldSql(user, organizationId)} as roles`,
  );
  return row?.roles ?? [];
}

/** The caller's effective role on an organization (see `rolesHeldSql`); null when it holds none there. */
export async function effectiveRole(db: Tx, user: AuthUser, organizationId: string): Promise<Role | null> {
  if (!isUuid(organizationId)) return null;
  return strongestRole((await rolesHeld(db, user, organizationId)).filter(isRole));
}

/** `accessFromRoles` as a query of its own, for calls that read or write more afterwards. */
export async function requireOrganizationAccess(
  db: Tx,
  user: AuthUser,
  organizationId: string,
  required: readonly Permission[] = [],
): Promise<OrganizationAccess> {
  return accessFromRoles(await rolesHeld(db, user, organizationId), required);
}
