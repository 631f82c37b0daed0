import { type SQL, sql } from 'drizzle-orm';
import { jsonParam } from '../../db/json-params';
import { changeByAccount, type JournalLine } from './journal';

/** What the audit of a move needs to know of it (move-answer.ts's `Move`). */
export interface AuditedMove {
  actorId: string;
  description: string;
  lines: readonly JournalLine[];
  organizations: readonly { id: string; shared: string; protected: string }[];
  users: readonly { name: string; account: string }[];
  transferOrganizationId?: string;
}

/**
 * The audit entries of a move made in the panel (decision 014): one `credits_moved` per organization whose
 * pools it changed, with those pools before and after, so each organization's log says what it gained or
 * lost; a move between two members' balances is recorded in the organization whose balances they are
 * (CONTRACT §5: credits per membership), with their balances there. Every entry names the journal transaction
 * (the credit log entry of the same id).
 *
 * An insert that goes in the posting's own statement (`afterward`, journal.ts) and reads its result, the CTE
 * `posted`: the balances after are the posting's report, the balances before those less the move's change of
 * each account. One round trip for the move and its audit.
 */
export function auditMoveStatement(move: AuditedMove): SQL | null {
  const entries = auditEntriesOf(move);
  if (entries.length === 0) return null;
  const balance = sql`coalesce((p.posted->'balances'->>(f.value->>0))::bigint, 0)`;
  return sql`insert into audit_events
      (organization_id, actor_id, action, target_type, target_id, target_label, before, after, credit_transaction_id)
    select e.organization_id, ${move.actorId}::uuid, 'credits_moved', 'credit_transaction', p.posted->'ids'->>0,
      ${move.description}::text,
      (select jsonb_object_agg(f.key, ${balance} - (f.value->>1)::bigint) from jsonb_each(e.fields) f),
      (select jsonb_object_agg(f.key, ${balance}) from jsonb_each(e.fields) f),
      (p.posted->'ids'->>0)::uuid
    from posted p, jsonb_to_recordset(${jsonParam(entries)}::jsonb) as e(organization_id uuid, fields jsonb)
    returning 1 as answer`;
}

/** Each entry of a move's audit: the organization it is logged in and its fields, [account, the move's change]. */
function auditEntriesOf(
  move: AuditedMove,
): { organization_id: string; fields: Record<string, [string, number]> }[] {
  const change = changeByAccount(move.lines);
  const entries: { organization_id: string; fields: Record<string, [string, number]> }[] = [];
  const field = (account: string): [string, number] => [account, change.get(account) ?? 0];
  const seen = new Set<string>();
  for (const org of move.organizations) {
    if (seen.has(org.id)) continue;
    seen.add(org.id);
    entries.push({
      organization_id: org.id,
      fields: { shared: field(org.shared), protected: field(org.protected) },
    });
  }
  if (entries.length === 0 && move.transferOrganizationId) {
    entries.push({
      organization_id: move.transferOrganizationId,
      fields: Object.fromEntries(move.users.map((u) => [u.name, field(u.account)])),
    });
  }
  return entries;
}

/** A move posted with others in one call, and the balances after it (move-queue.ts knows them under its locks). */
export interface AuditedInGroup {
  move: AuditedMove;
  /** Its place among the call's postings: its journal transaction is `ids[index]`. */
  index: number;
  after: ReadonlyMap<string, number>;
}

/**
 * `auditMoveStatement` for moves posted together (a shared transaction, move-queue.ts): several moves may
 * change one account, so the balances before and after each are the ones it saw and left, given, not the
 * posting's report of the whole call. One insert, in the posting's statement (`afterward`).
 */
export function auditMovesStatement(moves: readonly AuditedInGroup[]): SQL | null {
  const entries = moves.flatMap(({ move, index, after }) =>
    auditEntriesOf(move).map((entry) => {
      const fields = Object.entries(entry.fields);
      const balance = (account: string) => after.get(account) ?? 0;
      return {
        organization_id: entry.organization_id,
        actor_id: move.actorId,
        n: index,
        label: move.description,
        before: Object.fromEntries(fields.map(([k, [account, change]]) => [k, balance(account) - change])),
        after: Object.fromEntries(fields.map(([k, [account]]) => [k, balance(account)])),
      };
    }),
  );
  if (entries.length === 0) return null;
  return sql`insert into audit_events
      (organization_id, actor_id, action, target_type, target_id, target_label, before, after, credit_transaction_id)
    select e.organization_id, e.actor_id, 'credits_moved', 'credit_transaction', p.posted->'ids'->>e.n, e.label,
      e.before, e.after, (p.posted->'ids'->>e.n)::uuid
    from posted p, jsonb_to_recordset(${jsonParam(entries)}::jsonb)
      as e(organization_id uuid, actor_id uuid, n int, label text, before jsonb, after jsonb)
    returning 1 as answer`;
}
