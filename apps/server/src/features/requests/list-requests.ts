import { buildPagination } from '@allot/domain/pagination';
import type { RequestListQuery, RequestPage } from '@allot/domain/requests';
import { hasAnyPermission } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { requireOrganizationAccess } from '../organization-access';
import { readRequests } from './request-rows';

/** Who decides requests asked of an organization: whoever may allocate credits or seats there. */
export const DECIDING_PERMISSIONS = ['transfer_org_credits', 'manage_org_license'] as const;

/**
 * GET /api/organization/{id}/requests, newest first. `incoming`: the requests asked of `{id}` by the organizations
 * directly below it, for whoever may allocate there; `outgoing`: `{id}`'s own, for whoever manages it. `status`
 * narrows either. People are named as `{id}`'s logs name them.
 */
export async function listRequests(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: RequestListQuery,
): Promise<RequestPage> {
  const access = await requireOrganizationAccess(db, user, organizationId);
  if (query.direction === 'incoming' && !hasAnyPermission(DECIDING_PERMISSIONS, access)) {
    throw AppError.forbidden();
  }
  const side =
    query.direction === 'incoming'
      ? sql`r.parent_organization_id = ${organizationId}`
      : sql`r.organization_id = ${organizationId}`;
  const where = query.status ? sql`${side} and r.status = ${query.status}` : side;
  const [counted] = await rows<{ n: number | string }>(
    db,
    sql`select count(*) as n from organization_requests r where ${where}`,
  );
  const data = await readRequests(db, where, organizationId, {
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  });
  const pagination = buildPagination(
    { page: query.page, limit: query.limit, search: '', key: 'createdAt', order: 'desc' },
    Number(counted?.n ?? 0),
  );
  return { data, pagination };
}
