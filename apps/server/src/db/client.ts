import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { isDatabaseUnavailable, retryWhileUnavailable } from './database-unavailable';
import { firstAnswers, firstStatements, sendBehindBegin } from './first-read';
import { preparedStatement } from './prepared-rows';
import {
  openReadReplica,
  REPLICA_CONNECT_TIMEOUT_MS,
  type ReadRouting,
  type ReplicaOptions,
} from './read-replica';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: services take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** With a read replica (`DATABASE_READ_URL`): where the reads that tolerate one run (db/read-replica.ts). */
  reads?: ReadRouting;
  close(): Promise<void>;
  /** PGlite only: the whole data dir as a tarball (test templates). */
  dumpDataDir?: (compression?: 'none' | 'gzip') => Promise<Blob>;
}

export async function openPostgres(
  url: string,
  max = 20,
  replica?: { url: string } & ReplicaOptions,
): Promise<Database> {
  const pool = postgresPool(url, max);
  retryStatementsOnLostConnections(pool);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  db.transaction = transactionsReleasingTheirClient(pool);
  if (!replica) return { db, kind: 'postgres', close: () => pool.end() };
  // A replica that is down must cost a request little: a connection it does not accept fails within a second.
  const replicaPool = postgresPool(replica.url, max, { connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS });
  const reads = openReadReplica(db, pool, replicaPool, replica);
  return {
    db,
    kind: 'postgres',
    reads,
    close: async () => {
      await reads.close();
      await pool.end();
    },
  };
}

function postgresPool(url: string, max: number, config: pg.PoolConfig = {}): pg.Pool {
  // JIT compiles plans for seconds-long analytics; for short OLTP queries it only adds latency.
  const pool = new pg.Pool({ connectionString: url, max, options: '-c jit=off', ...config });
  // A pool error (a dropped idle connection) must not crash the process: the pool has removed it already.
  pool.on('error', () => {});
  // A connection lost while a transaction holds it (`pg_terminate_backend`, a failover) emits 'error' on the
  // client, where the pool listens only while the client is idle: without a listener of its own, Node ends
  // the process. The transaction's next statement fails instead, and the pool drops the client when it is
  // released (it is no longer queryable).
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * `pool.query` runs a statement outside a transaction (drizzle's transactions use a client of their own).
 * Those statements are reads or writes a second run does not harm (see `retryWhileUnavailable`): on a lost
 * connection they run again on another one. Write transactions are `writeTransaction`'s (db/transaction.ts).
 */
function retryStatementsOnLostConnections(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  pool.query = ((...args: unknown[]) =>
    typeof args.at(-1) === 'function'
      ? query(...args)
      : retryWhileUnavailable(() => query(...args))) as typeof pool.query;
}

/**
 * drizzle's `transaction` on a pool (0.45) sends BEGIN before the `try` whose `finally` gives the client
 * back: a BEGIN on a connection that was just terminated keeps the client checked out for good, and a few of
 * those leave the pool empty and every request waiting (drizzle-team/drizzle-orm#6023, #6241). Here each
 * transaction takes its client from the pool itself, runs drizzle's transaction on that one client (drizzle
 * then neither takes nor gives back anything), and always gives it back: with the error when the
 * connection was lost, so that the pool closes it rather than lends it again.
 */
function transactionsReleasingTheirClient(pool: pg.Pool): Db['transaction'] {
  // One drizzle handle per connection: making one reads the whole schema.
  const handles = new WeakMap<pg.PoolClient, Db>();
  return async (work, config) => {
    const client = await pool.connect();
    let lost: Error | undefined;
    let sent: Promise<unknown> | undefined;
    try {
      let handle = handles.get(client);
      if (!handle) {
        handle = drizzlePg(client, { schema }) as unknown as Db;
        handles.set(client, handle);
      }
      const first = firstStatements.get(work);
      if (first) {
        const answer = sendBehindBegin(client, preparedStatement(handle, first));
        firstAnswers.set(work, answer);
        sent = answer.catch(() => {});
      }
      return await handle.transaction(work, config);
    } catch (error) {
      if (isDatabaseUnavailable(error)) lost = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A BEGIN that failed leaves the statement behind it on the wire: its answer comes before the client goes.
      await sent;
      client.release(lost);
    }
  };
}

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database> {
  const client = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    // Migrations 0002 and 0007 create these (substring search, before issue 13) and 0014 drops them: a new
    // database replays that history, so PGlite must be able to load them.
    extensions: { pg_trgm, btree_gin },
  });
  return wrapPglite(client);
}

export function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    dumpDataDir: (compression = 'none') => client.dumpDataDir(compression),
  };
}

export async function openDatabase(config: {
  databaseUrl?: string | undefined;
  databaseReadUrl?: string | undefined;
  dataDir: string;
}): Promise<Database> {
  if (!config.databaseUrl) return openPglite({ dataDir: config.dataDir });
  return openPostgres(
    config.databaseUrl,
    undefined,
    config.databaseReadUrl ? { url: config.databaseReadUrl } : undefined,
  );
}
