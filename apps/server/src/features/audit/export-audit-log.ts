import { AUDIT_ACTION_LABEL, AUDIT_CSV_HEADER, type AuditLogExportQuery } from '@allot/domain/audit';
import { csvLine } from '@allot/domain/csv';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { EXPORT_BATCH } from '../../http/csv-download';
import { requireOrganizationAccess } from '../organization-access';
import { type AuditRow, readAuditRows, toAuditEntry } from './audit-entries';

const json = (value: Record<string, unknown> | null) => (value === null ? '' : JSON.stringify(value));

function auditCsvLine(row: AuditRow): string {
  const e = toAuditEntry(row);
  return `${csvLine([
    e.date,
    AUDIT_ACTION_LABEL[e.action],
    e.organization.name,
    e.organization.id,
    e.actor?.name ?? '',
    e.actor?.email ?? '',
    e.target.type,
    e.target.label,
    e.target.id ?? '',
    json(e.before),
    json(e.after),
  ])}\r\n`;
}

/**
 * GET /api/organization/{id}/audit-log/export (CONTRACT §10): access is checked first (a 403/404 is a JSON
 * answer); then the rows the same filters list, newest first, read by pages of EXPORT_BATCH. The export
 * reads the log as it was when it began: an entry written meanwhile is in neither the file nor its pages.
 */
export async function exportAuditLog(
  db: Db,
  user: AuthUser,
  organizationId: string,
  filter: AuditLogExportQuery,
): Promise<AsyncIterable<string>> {
  await requireOrganizationAccess(db, user, organizationId, ['view_audit_logs']);
  const [top] = await rows<{ seq: string | null }>(db, sql`select max(seq)::text as seq from audit_events`);
  const atMostSeq = top?.seq ?? '0';
  return (async function* () {
    yield `${csvLine(AUDIT_CSV_HEADER)}\r\n`;
    let beforeSeq: string | null = null;
    for (;;) {
      const batch = await readAuditRows(db, organizationId, filter, {
        limit: EXPORT_BATCH,
        beforeSeq,
        atMostSeq,
      });
      if (batch.length > 0) yield batch.map(auditCsvLine).join('');
      const last = batch.at(-1);
      if (!last || batch.length < EXPORT_BATCH) return;
      beforeSeq = last.seq;
    }
  })();
}
