import type { CreditPool } from '@allot/domain/credits';
import type { LicenseType } from '@allot/domain/organizations';
import {
  REQUEST_MSG,
  REQUEST_PERMISSION,
  type RequestKind,
  type RequestStatus,
} from '@allot/domain/requests';
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
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { rolesHeldSql } from '../organization-access';

/** A request as its decisions need it, its row locked until the transaction ends. */
export interface LockedRequest {
  id: string;
  organizationId: string;
  parentOrganizationId: string;
  kind: RequestKind;
  amount: number;
  pool: CreditPool | null;
  licenseType: LicenseType | null;
  status: RequestStatus;
  createdBy: string | null;
}

/** The caller's effective role on each side of a request: the asking organization and the one asked. */
export interface RequestSides {
  asker: Role | null;
  parent: Role | null;
}

const may = (role: Role | null, permission: Permission) =>
  hasPanelAccess(role) && hasPermissions([permission], { role, permissions: permissionsOf(role) });

/**
 * A request, locked `for update`, and the caller's roles on both sides. Who manages the asking organization or
 * the one asked sees it (roles reach down, so the admins above see it through either); anyone else gets `404`, as
 * for an id that names nothing (CONTRACT §1). The lock comes first: a second decision waits here for the first
 * and then finds the request no longer open.
 */
export function lockVisibleRequest(
  tx: Tx,
  user: AuthUser,
  id: string,
): Promise<{ request: LockedRequest; sides: RequestSides }> {
  return visibleRequest(tx, user, id, true);
}

/** The same check without the lock, for a read (GET /api/request/{id}). */
export function findVisibleRequest(
  db: Tx,
  user: AuthUser,
  id: string,
): Promise<{ request: LockedRequest; sides: RequestSides }> {
  return visibleRequest(db, user, id, false);
}

async function visibleRequest(
  tx: Tx,
  user: AuthUser,
  id: string,
  lock: boolean,
): Promise<{ request: LockedRequest; sides: RequestSides }> {
  if (!isUuid(id)) throw AppError.notFound();
  const [row] = await rows<{
    id: string;
    organization_id: string;
    parent_organization_id: string;
    kind: RequestKind;
    amount: number | string;
    pool: CreditPool | null;
    license_type: LicenseType | null;
    status: RequestStatus;
    created_by: string | null;
  }>(
    tx,
    sql`select id, organization_id, parent_organization_id, kind, amount, pool, license_type, status, created_by
      from organization_requests where id = ${id} ${lock ? sql`for update` : sql``}`,
  );
  if (!row) throw AppError.notFound();
  const [held] = await rows<{ asker: string[]; parent: string[] }>(
    tx,
    sql`select ${rolesHeldSql(user, row.organization_id)} as asker,
      ${rolesHeldSql(user, row.parent_organization_id)} as parent`,
  );
  const sides = {
    asker: strongestRole((held?.asker ?? []).filter(isRole)),
    parent: strongestRole((held?.parent ?? []).filter(isRole)),
  };
  if (!hasPanelAccess(sides.asker) && !hasPanelAccess(sides.parent)) throw AppError.notFound();
  return {
    request: {
      id: row.id,
      organizationId: row.organization_id,
      parentOrganizationId: row.parent_organization_id,
      kind: row.kind,
      amount: Number(row.amount),
      pool: row.pool,
      licenseType: row.license_type,
      status: row.status,
      createdBy: row.created_by,
    },
    sides,
  };
}

/** Approve and decline: whoever may make the allocation it asks for in the organization asked (`403` else). */
export function requireDecider(request: LockedRequest, sides: RequestSides): void {
  if (!may(sides.parent, REQUEST_PERMISSION[request.kind])) throw AppError.forbidden();
}

/** Cancel: whoever manages the asking organization (`403` else). */
export function requireAsker(sides: RequestSides): void {
  if (!hasPanelAccess(sides.asker)) throw AppError.forbidden();
}

/** A decision on a request that is no longer open is `409`. */
export function requireOpen(request: LockedRequest): void {
  if (request.status !== 'open') throw AppError.of('conflict', REQUEST_MSG.notOpen);
}
