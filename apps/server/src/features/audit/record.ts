import type { AuditAction, AuditTargetType } from '@allot/domain/audit';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';

/** One change for the audit log (CONTRACT §10, decision 014). */
export interface AuditRecord {
  /** Where the change was made: a viewer of this organization or any above it sees the entry. */
  organizationId: string;
  /** The person who made it; null when no person did. */
  actorId: string | null;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null; label: string };
  /** Only the fields that changed, as the API shows them; null for a creation (before) or a removal (after). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** For `credits_moved`: the journal transaction (the credit log entry with the same id). */
  creditTransactionId?: string | null;
  /** A change of the past: only seeds date one (the demo's history); every change of a person is dated now. */
  createdAt?: Date;
}

/**
 * Writes audit entries in the caller's transaction, so an entry exists exactly when its change does.
 * Many records are one statement (a bulk import is one round trip).
 */
export async function recordAudit(tx: Tx, records: AuditRecord | readonly AuditRecord[]): Promise<void> {
  const list = Array.isArray(records) ? records : [records as AuditRecord];
  if (list.length === 0) return;
  await tx.execute(sql`insert into audit_events
      (organization_id, actor_id, action, target_type, target_id, target_label, before, after, credit_transaction_id,
       created_at)
    select r.organization_id, r.actor_id, r.action, r.target_type, r.target_id, coalesce(r.target_label, ''),
      r.before, r.after, r.credit_transaction_id, coalesce(r.created_at, now())
    from json_to_recordset(${jsonParam(
      list.map((r) => ({
        organization_id: r.organizationId,
        actor_id: r.actorId,
        action: r.action,
        target_type: r.target.type,
        target_id: r.target.id,
        target_label: r.target.label,
        before: r.before ?? null,
        after: r.after ?? null,
        credit_transaction_id: r.creditTransactionId ?? null,
        created_at: r.createdAt?.toISOString() ?? null,
      })),
    )}) as r(organization_id uuid, actor_id uuid, action text, target_type text, target_id text,
      target_label text, before jsonb, after jsonb, credit_transaction_id uuid, created_at timestamptz)`);
}
