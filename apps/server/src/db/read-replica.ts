import { setTimeout as sleep } from 'node:timers/promises';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from './client';
import { isDatabaseUnavailable } from './database-unavailable';
import * as schema from './schema';
import { sqlState } from './transaction';

/**
 * Where the reads that tolerate a replica run (`DATABASE_READ_URL`, docs/decisions/018-read-replica.md): asked
 * once per request, after whatever the request wrote first.
 */
export interface ReadRouting {
  /** The replica when it has replayed everything the primary had committed when asked, else the primary. */
  reads(): Promise<Db>;
  /** From now on tells `report` where the reads go (in place of any report before); without a replica, nothing. */
  reportTo(report: ReadReport): void;
  close(): Promise<void>;
}

/**
 * Where the reads went, for whoever counts them: db/ imports no metrics, so http/replica-reads.ts hands the
 * routing a report that counts them in lib/metrics.ts (`allot_db_reads_total`, `allot_db_replica_fallbacks_total`).
 */
export interface ReadReport {
  /** A request's reads run on `target`, for `reason`. */
  routed(target: 'replica' | 'primary', reason: Outcome): void;
  /** A statement failed on the replica (it went away, or a recovery conflict cancelled it) and ran on the primary. */
  fellBack(): void;
}

/** A call's handle for its reads that tolerate a replica, asked for after the call's own writes. */
export type ReplicaReads = () => Promise<Db>;

/** Without a replica every read is the primary's. */
export const primaryOnly = (db: Db): ReadRouting => ({
  reads: async () => db,
  reportTo: () => {},
  close: async () => {},
});

export interface ReplicaOptions {
  /** How long a read waits for the replica to replay the primary's position before it reads the primary. */
  maxWaitMs?: number;
  /** How long a replica found down or behind is left alone (a probe in the background then asks again). */
  retryAfterMs?: number;
  /** How long the replica may take to answer the position check before it counts as down. */
  checkTimeoutMs?: number;
  log?: (line: string) => void;
}

/** A replica that does not accept a connection within this is down (its pool's `connectionTimeoutMillis`). */
export const REPLICA_CONNECT_TIMEOUT_MS = 1_000;
const POLL_MS = 2;

/**
 * The primary's position a read must see. The flush position covers every commit acknowledged with
 * `synchronous_commit` on (PostgreSQL's default; Allot never turns it off) and is what the primary streams;
 * with it off, a commit is acknowledged before its flush, so the insert position is taken instead.
 */
const PRIMARY_POSITION = {
  name: 'allot_primary_position',
  text: `select (case when current_setting('synchronous_commit') = 'off'
    then pg_current_wal_insert_lsn() else pg_current_wal_flush_lsn() end)::text as lsn`,
};
/** On the replica: null when it is no standby (promoted, or the URL names a primary): never read there. */
const REPLAYED = {
  name: 'allot_replica_replayed',
  text: 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught_up',
};

/** A standby cancelled the statement for a conflict with the WAL it replays: the primary answers it instead. */
const RECOVERY_CONFLICT = new Set(['40001', '40P01']);

export type Outcome = 'caught_up' | 'behind' | 'down';

/**
 * A streaming replica beside the primary. Each request that reads through it first reads the primary's WAL
 * position (one short statement, no table) and then asks the replica whether it has replayed that far, waiting
 * up to `maxWaitMs` for it; caught up, the request reads the replica, which then shows everything committed
 * before the request, the caller's own writes included, whichever server process made them. Otherwise it
 * reads the primary, and the replica is left alone for `retryAfterMs`: requests meanwhile go to the primary
 * without asking it, and one probe in the background asks again. A statement that fails on the replica (it
 * went away, or a recovery conflict cancelled it) runs again on the primary.
 */
export function openReadReplica(
  primary: Db,
  primaryPool: pg.Pool,
  replicaPool: pg.Pool,
  options: ReplicaOptions = {},
): ReadRouting {
  const maxWaitMs = options.maxWaitMs ?? 25;
  const retryAfterMs = options.retryAfterMs ?? 5_000;
  const checkTimeoutMs = options.checkTimeoutMs ?? 1_000;
  const log = options.log ?? ((line: string) => console.warn(`  ${line}`));

  let state: { outcome: Outcome; retryAt: number } = { outcome: 'caught_up', retryAt: 0 };
  let probe: Promise<void> | null = null;
  let closed = false;
  let report: ReadReport = { routed: () => {}, fellBack: () => {} };

  const replicaQuery = replicaPool.query.bind(replicaPool) as (...args: unknown[]) => Promise<unknown>;
  const setState = (outcome: Outcome, reason?: string) => {
    if (outcome === 'down' && state.outcome !== 'down') {
      log(
        `read replica unavailable (${reason}): reads go to the primary, asked again every ${retryAfterMs / 1000} s`,
      );
    } else if (outcome === 'caught_up' && state.outcome === 'down') {
      log('read replica available again');
    }
    state = { outcome, retryAt: outcome === 'caught_up' ? 0 : Date.now() + retryAfterMs };
  };

  // The statements of a read that fail on the replica (reads only: a second run harms nothing) go to the
  // primary; a replica that went away is left alone as when its check fails.
  replicaPool.query = ((...args: unknown[]) => {
    if (typeof args.at(-1) === 'function') return replicaQuery(...args);
    return replicaQuery(...args).catch((error: unknown) => {
      const lost = isDatabaseUnavailable(error);
      if (!lost && !RECOVERY_CONFLICT.has(sqlState(error) ?? '')) throw error;
      if (lost) setState('down', messageOf(error));
      report.fellBack();
      return (primaryPool.query as (...a: unknown[]) => Promise<unknown>)(...args);
    });
  }) as typeof replicaPool.query;
  const replica = drizzle(replicaPool, { schema }) as unknown as Db;
  // Reads open no transaction; one that did would be a write's, and writes are the primary's.
  replica.transaction = primary.transaction;

  const withTimeout = <T>(work: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer within ${checkTimeoutMs} ms`)),
        checkTimeoutMs,
      );
      timer.unref();
      work.then(resolve, reject).finally(() => clearTimeout(timer));
    });

  /** Has the replica replayed the primary's position (waiting up to maxWaitMs)? Throws when the primary fails. */
  async function check(): Promise<Outcome> {
    const position = (await primaryPool.query<{ lsn: string }>(PRIMARY_POSITION)).rows[0]?.lsn;
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      let caughtUp: boolean | null;
      try {
        const answer = await withTimeout(
          replicaQuery({ ...REPLAYED, values: [position] }) as Promise<
            pg.QueryResult<{ caught_up: boolean | null }>
          >,
        );
        caughtUp = answer.rows[0]?.caught_up ?? null;
      } catch (error) {
        setState('down', messageOf(error));
        return 'down';
      }
      if (caughtUp === null) {
        setState('down', 'it is not replaying WAL: no standby');
        return 'down';
      }
      if (caughtUp) return 'caught_up';
      if (Date.now() >= deadline) return 'behind';
      await sleep(POLL_MS);
    }
  }

  const startProbe = () => {
    state.retryAt = Date.now() + retryAfterMs;
    probe = check()
      .then(
        (outcome) => setState(outcome),
        () => undefined,
      )
      .finally(() => {
        probe = null;
      });
  };

  const routed = (target: 'replica' | 'primary', reason: Outcome) => {
    report.routed(target, reason);
    return target === 'replica' ? replica : primary;
  };

  return {
    async reads() {
      if (closed) return primary;
      if (state.outcome !== 'caught_up') {
        if (!probe && Date.now() >= state.retryAt) startProbe();
        return routed('primary', state.outcome);
      }
      const outcome = await check();
      if (outcome === 'caught_up') return routed('replica', outcome);
      setState(outcome);
      return routed('primary', outcome);
    },
    reportTo(to) {
      report = to;
    },
    async close() {
      closed = true;
      await probe;
      await replicaPool.end();
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
