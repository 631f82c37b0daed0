import {
  hasPanelAccess,
  hasPermissions,
  isRole,
  type Permission,
  permissionsOf,
  type Role,
  strongestRole,
} from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { isUuid } from '../../lib/ids';
import type { AuthUser } from '../auth/sessions';

/**
 * The caller's effective role on an organization: system admin everywhere, else the strongest role
 * held on it or on any ancestor (one indexed lookup through the closure table).
 * Null when the organization does not exist or the caller holds nothing above it.
 */
export async function effectiveRole(db: Tx, user: AuthUser, organizationId: string): Promise<Role | null> {
  if (!isUuid(organizationId)) return null;
  if (user.isSystemAdmin) {
    const found = await preparedRows(
      db,
      sql`select 1 from organizations where id = ${organizationId} and deleted_at is null`,
    );
    return found.length > 0 ? 'system_admin' : null;
  }
  const held = await preparedRows<{ role: string }>(
    db,
    sql`
    select m.role from organization_closure c
    join memberships m on m.organization_id = c.ancestor_id and m.user_id = ${user.userId}
    where c.descendant_id = ${organizationId}`,
  );
  return strongestRole(held.map((r) => r.role).filter(isRole));
}

export interface OrganizationAccess {
  role: Role;
  permissions: Permission[];
}

/**
 * Guards every call that names an organization: `404` when the caller cannot see it (unknown id,
 * another tenant, or only a teacher there), `403` when it can see it but lacks a required permission.
 */
export async function requireOrganizationAccess(
  db: Tx,
  user: AuthUser,
  organizationId: string,
  required: readonly Permission[] = [],
): Promise<OrganizationAccess> {
  const role = await effectiveRole(db, user, organizationId);
  if (!hasPanelAccess(role) || role === null) throw AppError.notFound();
  const permissions = permissionsOf(role);
  if (!hasPermissions(required, { role, permissions })) throw AppError.forbidden();
  return { role, permissions };
}

/** Strongest role the user holds on any organization (what sign in reports). */
export async function strongestRoleAnywhere(db: Tx, userId: string): Promise<Role | null> {
  const held = await rows<{ role: string }>(
    db,
    sql`select distinct role from memberships where user_id = ${userId}`,
  );
  return strongestRole(held.map((r) => r.role).filter(isRole));
}
