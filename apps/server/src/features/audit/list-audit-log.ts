import type { AuditLogPage, AuditLogQuery } from '@allot/domain/audit';
import type { Db } from '../../db/client';
import type { AuthUser } from '../../http/authenticate';
import { cursorPage, decodePageToken } from '../../http/cursor';
import { requireOrganizationAccess } from '../organization-access';
import { readAuditRows, toAuditEntry } from './audit-entries';

/** GET /api/organization/{id}/audit-log (CONTRACT §10; needs view_audit_logs): newest first, by cursor. */
export async function listAuditLog(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: AuditLogQuery,
): Promise<AuditLogPage> {
  await requireOrganizationAccess(db, user, organizationId, ['view_audit_logs']);
  const beforeSeq = decodePageToken(query.pageToken);
  const found = await readAuditRows(db, organizationId, query, { limit: query.limit + 1, beforeSeq });
  const { page, pagination } = cursorPage(found, query.limit);
  return { data: page.map(toAuditEntry), pagination };
}
