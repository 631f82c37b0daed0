import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db, Tx } from './client';
import { isDatabaseUnavailable } from './database-unavailable';
import { type FirstRead, startingWith } from './first-read';
import { rows } from './rows';

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
 * How many times this process's write transactions were aborted by a concurrent one, by SQLSTATE (`40P01` a
 * deadlock, `40001` a serialization failure, `CR009`) or `race` (`RetryTransaction`), whether run again or not.
 * The randomized ledger workloads read the deadlocks here: none may happen (locks.ts, "lock order").
 */
export const concurrencyConflicts = new Map<string, number>();

function countConflict(error: unknown) {
  const cause = error instanceof RetryTransaction ? 'race' : (sqlState(error) ?? 'unknown');
  concurrencyConflicts.set(cause, (concurrencyConflicts.get(cause) ?? 0) + 1);
}

/**
 * The connection was lost after the work had run, while COMMIT was on its way, and PostgreSQL could not
 * tell (in time) whether the transaction committed. The error handler answers `503` with `Retry-After`
 * and says the change may have been saved.
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super('the connection was lost at COMMIT and the outcome could not be read back', { cause });
  }
}

/**
 * Every write transaction of the server goes through here: the work runs in one transaction and runs again
 * from the start, a bounded number of times with a growing, jittered pause, when
 * - PostgreSQL aborted it for a deadlock or a serialization failure, or the work says it lost a race;
 * - its connection was lost (`pg_terminate_backend`, a failover) before COMMIT: PostgreSQL rolled it back.
 * The work must therefore keep no state outside the transaction between attempts. A connection lost at
 * COMMIT is another matter: the commit may have happened, and running a credit move again would apply it
 * twice. Before COMMIT the transaction's id is read (PostgreSQL only, one short statement); after such a
 * loss `pg_xact_status` on another connection says what happened: committed, the work's result is the
 * answer; rolled back, the work runs again; unknown, `CommitOutcomeUnknown`. Still failing after the last
 * attempt, the error reaches the error handler: `409` for colliding changes (CONTRACT §1: never a 500 for
 * requests that came at once), `503` with `Retry-After` for a database it cannot reach.
 */
export async function writeTransaction<T>(
  db: Db,
  work: (tx: Tx) => Promise<T>,
  first?: FirstRead,
): Promise<T> {
  const readsOutcome = onPostgres(db);
  for (let attempt = 1; ; attempt++) {
    let done: { result: T; xid: string | null } | undefined;
    const hooks: (() => void)[] = [];
    const attempted = async (tx: Tx) => {
      commitHooks.set(tx, hooks);
      const result = await work(tx);
      done = { result, xid: readsOutcome ? (knownIds.get(tx) ?? (await transactionId(tx))) : null };
      return result;
    };
    try {
      const result = await db.transaction(
        first
          ? startingWith(first.statement, async (tx, found) => {
              await first.settle(tx, found);
              return attempted(tx);
            })
          : attempted,
      );
      runHooks(hooks);
      return result;
    } catch (error) {
      const lost = isDatabaseUnavailable(error);
      if (lost && done) {
        // Lost at COMMIT. Without an id the transaction wrote nothing: committed or not, the result holds.
        const outcome = done.xid === null ? 'committed' : await commitOutcome(db, done.xid);
        if (outcome === 'committed') {
          runHooks(hooks);
          return done.result;
        }
        if (outcome === 'unknown') throw new CommitOutcomeUnknown(error);
      }
      const conflict = !lost && isConcurrencyConflict(error);
      if (conflict) countConflict(error);
      if (attempt >= WRITE_ATTEMPTS || !(lost || conflict)) throw error;
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}

/** What runs once a write transaction has committed (`afterCommit`), by transaction. */
const commitHooks = new WeakMap<Tx, (() => void)[]>();

/**
 * Runs `hook` once the transaction commits: never for an attempt rolled back (a retried deadlock counts once).
 * Outside `writeTransaction` (a plain handle, a test's own transaction) it runs at once. For what only counts
 * (metrics), never for what the change needs.
 */
export function afterCommit(tx: Tx, hook: () => void): void {
  const hooks = commitHooks.get(tx);
  if (hooks) hooks.push(hook);
  else hook();
}

function runHooks(hooks: readonly (() => void)[]) {
  for (const hook of hooks) {
    try {
      hook();
    } catch {
      // A hook only counts: its failure must not turn a committed change into an error.
    }
  }
}

function onPostgres(db: Db): boolean {
  return (db as { $client?: unknown }).$client instanceof pg.Pool;
}

/** Transaction ids the work read itself in its last write (`rememberTransactionId`): one round trip less. */
const knownIds = new WeakMap<Tx, string>();

/**
 * The work's last statement answered the transaction's id (`pg_current_xact_id()::text`): `writeTransaction`
 * need not ask for it before COMMIT. Only from a statement after which the work writes nothing more.
 */
export function rememberTransactionId(tx: Tx, xid: string | null | undefined): void {
  if (xid) knownIds.set(tx, xid);
}

/** The transaction's id, or null when it has none (it wrote nothing and locked no row). */
async function transactionId(tx: Tx): Promise<string | null> {
  const [row] = await rows<{ xid: string | null }>(
    tx,
    sql`select pg_current_xact_id_if_assigned()::text as xid`,
  );
  return row?.xid ?? null;
}

/** How long to wait for a transaction still shown in progress (its backend finishing or being ended). */
const OUTCOME_POLLS = 10;

/**
 * Whether the transaction `xid` committed, read on another connection. 'in progress' lasts while the old
 * backend winds down; asked again a few times, then 'unknown', as when the database cannot be reached.
 */
async function commitOutcome(db: Db, xid: string): Promise<'committed' | 'aborted' | 'unknown'> {
  for (let poll = 0; poll < OUTCOME_POLLS; poll++) {
    try {
      const [row] = await rows<{ status: string | null }>(
        db,
        sql`select pg_xact_status(${xid}::xid8) as status`,
      );
      if (row?.status === 'committed' || row?.status === 'aborted') return row.status;
    } catch {
      return 'unknown';
    }
    await sleep(50);
  }
  return 'unknown';
}
