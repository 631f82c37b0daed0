import type { AuditAction, AuditEntry, AuditLogExportQuery, AuditTargetType } from '@allot/domain/audit';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { namedInLogOfSql, personInLog } from '../organization-access';
import { auditFilterSql } from './audit-filter';

export interface AuditRow {
  id: string;
  seq: string;
  date: Date | string;
  action: AuditAction;
  organization_id: string;
  organization_name: string | null;
  actor_id: string | null;
  actor_named: boolean | null;
  actor_name: string | null;
  actor_email: string | null;
  target_type: AuditTargetType;
  target_id: string | null;
  target_label: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Up to `limit` entries of the log of `organizationId` matching `filter`, newest first, strictly older than
 * `beforeSeq` and not newer than `atMostSeq` when given (an export reads the log as it was when it began).
 */
export function readAuditRows(
  db: Tx,
  organizationId: string,
  filter: AuditLogExportQuery,
  page: { limit: number; beforeSeq?: string | null; atMostSeq?: string | null },
): Promise<AuditRow[]> {
  return rows<AuditRow>(
    db,
    sql`select a.id, a.seq::text as seq, a.created_at as date, a.action,
          a.organization_id, o.name as organization_name,
          u.id as actor_id, ${namedInLogOfSql(sql`u.id`, organizationId)} as actor_named,
          u.name as actor_name, u.email as actor_email,
          a.target_type, a.target_id, a.target_label, a.before, a.after
        from audit_events a
        left join organizations o on o.id = a.organization_id
        left join users u on u.id = a.actor_id
        where ${auditFilterSql(organizationId, filter)}
          ${page.beforeSeq ? sql`and a.seq < ${page.beforeSeq}::bigint` : sql``}
          ${page.atMostSeq ? sql`and a.seq <= ${page.atMostSeq}::bigint` : sql``}
        order by a.seq desc
        limit ${page.limit}`,
  );
}

const parseJson = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'string'
    ? (JSON.parse(value) as Record<string, unknown>)
    : (value as Record<string, unknown>);

/** A row as the API answers it (CONTRACT §10). */
export function toAuditEntry(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    date: new Date(r.date).toISOString(),
    action: r.action,
    organization: { id: r.organization_id, name: r.organization_name ?? '' },
    actor: personInLog(r),
    target: { type: r.target_type, id: r.target_id, label: r.target_label },
    before: r.before === null ? null : parseJson(r.before),
    after: r.after === null ? null : parseJson(r.after),
  };
}
