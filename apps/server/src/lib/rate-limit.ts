import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { rows } from '../db/rows';

/**
 * The key of a counter, from its parts: trimmed and lower-cased, so that `ABC…` and `abc…` (a uuid, an
 * email) count against one limit, never two (the reset code limit once was walked that way).
 */
export function rateLimitKey(...parts: string[]): string {
  return parts.map((part) => part.trim().toLowerCase()).join(':');
}

/**
 * Adds `amount` to the window of `key` (row `r`), starting a new window when the last one has ended; `where`
 * may hold the update back (the row then stays as it is and nothing is returned).
 */
function addToWindow(key: string, window: SQL, amount: number, where: SQL = sql``) {
  return sql`
    insert into rate_limits as r (key, window_started_at, count) values (${key}, now(), ${amount})
    on conflict (key) do update set
      count = case when r.window_started_at <= now() - ${window} then ${amount}::int else r.count + ${amount}::int end,
      window_started_at = case when r.window_started_at <= now() - ${window} then now() else r.window_started_at end
    ${where}`;
}

/**
 * Fixed-window counters in the database, so the limit holds across server processes.
 * `hit` counts one attempt atomically and returns the count in the current window.
 */
export async function hitRateLimit(db: Tx, key: string, windowSeconds: number, amount = 1): Promise<number> {
  const result = await rows<{ count: number }>(
    db,
    sql`${addToWindow(key, sql`make_interval(secs => ${windowSeconds})`, amount)} returning r.count`,
  );
  return Number(result[0]?.count ?? 1);
}

/**
 * Takes `amount` attempts at once from the window of `key`, for a caller that spends them in memory
 * (lib/rate-limit-blocks.ts): granted while the window's count is below `limit` (the count may then pass it by
 * less than `amount`); refused, the row left as it is, once it has reached it. Either way, `msLeft`: the
 * milliseconds until the window ends, by the database's clock.
 */
export async function takeRateLimitBlock(
  db: Tx,
  key: string,
  windowSeconds: number,
  limit: number,
  amount: number,
): Promise<{ granted: boolean; msLeft: number }> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const msLeft = sql`extract(epoch from r.window_started_at + ${window} - now()) * 1000`;
  const [taken] = await rows<{ ms_left: number | string }>(
    db,
    sql`${addToWindow(key, window, amount, sql`where r.window_started_at <= now() - ${window} or r.count < ${limit}`)}
    returning ${msLeft} as ms_left`,
  );
  if (taken) return { granted: true, msLeft: Number(taken.ms_left) };
  const [full] = await rows<{ ms_left: number | string }>(
    db,
    sql`select ${msLeft} as ms_left from rate_limits r where r.key = ${key}`,
  );
  return { granted: false, msLeft: full ? Number(full.ms_left) : windowSeconds * 1000 };
}

/** Gives back attempts (a successful one should not count against a shared key). */
export async function releaseRateLimit(db: Tx, key: string, amount = 1): Promise<void> {
  await db.execute(
    sql`update rate_limits set count = greatest(count - ${amount}::int, 0) where key = ${key}`,
  );
}

export async function clearRateLimit(db: Tx, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}
