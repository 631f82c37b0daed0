import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { IDEMPOTENCY_KEY_HOURS } from '../../http/idempotency';

/** How long what has had its time is kept before the pruning job deletes it (docs/OPERATIONS.md, "Pruning"). */
export const KEPT = {
  /** A session a day past its expiry (a revoked one expires within 7 days of its last use anyway). */
  expiredSessionDays: 1,
  /** A rate-limit window two days after it started: the longest window is a day. */
  rateLimitWindowDays: 2,
  /** A mail 30 days after it was sent (or, without SMTP, written to the log and the outbox page). */
  sentMailDays: 30,
  /** An idempotency key after its 24 hours (CONTRACT §5): it answers nothing any more. */
  idempotencyKeyHours: IDEMPOTENCY_KEY_HOURS,
} as const;

/** Rows deleted by one statement: short transactions, short locks. */
export const PRUNE_BATCH = 1000;

/** Each table the job prunes: the rows past their time, as a condition on the table's own columns. */
const PRUNED: { table: string; past: SQL }[] = [
  { table: 'sessions', past: sql`expires_at < now() - make_interval(days => ${KEPT.expiredSessionDays})` },
  {
    table: 'rate_limits',
    past: sql`window_started_at < now() - make_interval(days => ${KEPT.rateLimitWindowDays})`,
  },
  {
    table: 'mail_outbox',
    past: sql`sent_at is not null and sent_at < now() - make_interval(days => ${KEPT.sentMailDays})`,
  },
  {
    table: 'idempotency_keys',
    past: sql`created_at < now() - make_interval(hours => ${KEPT.idempotencyKeyHours})`,
  },
];

export type PruneCounts = Record<string, number>;

/**
 * Deletes what has had its time, one batch of `PRUNE_BATCH` rows a statement, until a batch comes back
 * short or `signal` says stop. Several processes may run it at once: each batch takes rows no other batch
 * holds (`skip locked`), so none waits for another and no row is deleted twice.
 */
export async function pruneTables(db: Db, signal?: AbortSignal): Promise<PruneCounts> {
  const counts: PruneCounts = {};
  for (const { table, past } of PRUNED) {
    const name = sql.identifier(table);
    counts[table] = 0;
    for (;;) {
      if (signal?.aborted) return counts;
      const [deleted] = await rows<{ n: number }>(
        db,
        sql`with gone as (delete from ${name} where ctid = any(array(
            select ctid from ${name} where ${past} limit ${PRUNE_BATCH} for update skip locked))
          returning 1)
          select count(*)::int as n from gone`,
      );
      const n = Number(deleted?.n ?? 0);
      counts[table] += n;
      if (n < PRUNE_BATCH) break;
    }
  }
  return counts;
}
