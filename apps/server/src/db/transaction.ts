import { setTimeout as sleep } from 'node:timers/promises';
import type { Db, Tx } from './client';

/**
 * PostgreSQL's answers to two transactions that got in each other's way: the work may simply run again.
 * CR009 (migration 0020): a membership ended while credits arrived on its balance after the work read it; run
 * again, the work reads them and moves them back too.
 */
const RETRYABLE_CODES = new Set(['40001', '40P01', 'CR009']); // serialization_failure, deadlock_detected

/**
 * Thrown inside a write transaction that lost a race it can only see afterwards (a row another request
 * inserted first): the whole transaction runs again and then sees the winner's row.
 */
export class RetryTransaction extends Error {
  constructor(reason: string) {
    super(`transaction lost a race: ${reason}`);
  }
}

/** The SQLSTATE of a database error, through the wrappers drizzle puts around the driver's error. */
export function sqlState(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Would running the transaction again be right? A conflict with a concurrent change, nothing else. */
export function isConcurrencyConflict(error: unknown): boolean {
  if (error instanceof RetryTransaction) return true;
  const code = sqlState(error);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

export const WRITE_ATTEMPTS = 6;

/**
 * Every write transaction of the server goes through here: the work runs in one transaction and, when
 * PostgreSQL aborts it for a deadlock or a serialization failure (or the work says it lost a race), runs
 * again from the start, a bounded number of times with a growing, jittered pause. The work must therefore
 * keep no state outside the transaction between attempts. Still failing after the last attempt, the error
 * reaches the error handler, which answers `409` (CONTRACT §1: never a 500 for requests that came at once).
 */
export async function writeTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= WRITE_ATTEMPTS || !isConcurrencyConflict(error)) throw error;
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}
