import type { AuditLogExportQuery } from '@allot/domain/audit';
import { type SQL, sql } from 'drizzle-orm';
import { jsonParam } from '../../db/json-params';
import { isUuid } from '../../lib/ids';

/**
 * The organizations whose entries the log of `organizationId` lists: its live subtree (the closure table)
 * and the deleted organizations that were in it. A deleted organization has no closure rows any more, but
 * the log outlives it (decision 014): it is found through its parent, and a deleted parent through its own.
 */
function scopeSql(organizationId: string): SQL {
  return sql`(with recursive gone(id) as (
      select o.id from organizations o
      where o.deleted_at is not null and exists (select 1 from organization_closure c
        where c.ancestor_id = ${organizationId} and c.descendant_id = o.parent_id)
      union
      select o.id from organizations o join gone on o.parent_id = gone.id where o.deleted_at is not null)
    select descendant_id from organization_closure where ancestor_id = ${organizationId}
    union all
    select id from gone)`;
}

/**
 * The WHERE of the audit log of an organization with the filters of CONTRACT §10, over `audit_events a`.
 * An actor or organization id that is no uuid names nobody: it matches nothing. `from`/`to` are UTC days,
 * both included.
 */
export function auditFilterSql(organizationId: string, filter: AuditLogExportQuery): SQL {
  const parts: SQL[] = [sql`a.organization_id in ${scopeSql(organizationId)}`];
  if (filter.actorId !== undefined) {
    parts.push(isUuid(filter.actorId) ? sql`a.actor_id = ${filter.actorId}` : sql`false`);
  }
  if (filter.organizationId !== undefined) {
    parts.push(
      isUuid(filter.organizationId) ? sql`a.organization_id = ${filter.organizationId}` : sql`false`,
    );
  }
  if (filter.action.length > 0) {
    parts.push(sql`a.action in (select value from json_array_elements_text(${jsonParam(filter.action)}))`);
  }
  if (filter.from) parts.push(sql`a.created_at >= (${filter.from}::date)::timestamp at time zone 'UTC'`);
  if (filter.to) parts.push(sql`a.created_at < (${filter.to}::date + 1)::timestamp at time zone 'UTC'`);
  return sql.join(parts, sql` and `);
}
