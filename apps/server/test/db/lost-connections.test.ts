import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Tx } from '../../src/db/client';
import { isDatabaseUnavailable } from '../../src/db/database-unavailable';
import { rows } from '../../src/db/rows';
import { CommitOutcomeUnknown, writeTransaction } from '../../src/db/transaction';
import { openTestDatabase } from '../support/test-database';

/**
 * Issue 30: a database connection lost under a request (`pg_terminate_backend`, a failover). Statements
 * outside a transaction run again on another connection; a write transaction runs again when it was lost
 * before COMMIT, and is read back when it was lost at COMMIT, never applied twice; the pool drops the dead
 * connection and the process lives on. PostgreSQL only: the embedded PGlite has no connection to lose.
 */
const onPostgres = process.env.ALLOT_TEST_DB === 'postgres';

let database: Database;
let pool: pg.Pool;
let admin: pg.Client;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`create table lost_probe (id int primary key, n int not null default 0)`);
  await database.db.execute(sql`insert into lost_probe (id) values (1)`);
  pool = (database.db as unknown as { $client: pg.Pool }).$client;
  if (onPostgres) {
    const [row] = await rows<{ db: string }>(database.db, sql`select current_database() as db`);
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = `/${row?.db}`;
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  }
});
afterAll(async () => {
  await admin?.end();
  await database.close();
});

const count = async () =>
  Number((await rows<{ n: number }>(database.db, sql`select n from lost_probe where id = 1`))[0]?.n);

const backendOf = async (tx: Tx) =>
  Number((await rows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`))[0]?.pid);

/** Ends a backend as `pg_terminate_backend` does, and waits until it is gone. */
async function terminate(pid: number) {
  await admin.query('select pg_terminate_backend($1)', [pid]);
  for (let i = 0; i < 100; i++) {
    const { rows: left } = await admin.query('select 1 from pg_stat_activity where pid = $1', [pid]);
    if (left.length === 0) return;
    await sleep(10);
  }
  throw new Error(`backend ${pid} did not end`);
}

/** Terminates the backend running `marker` as soon as PostgreSQL shows it running. */
async function terminateWhenRunning(marker: string) {
  for (let i = 0; i < 200; i++) {
    const { rows: running } = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where state = 'active' and query like $1 and pid <> pg_backend_pid()`,
      [`%${marker}%`],
    );
    if (running[0]) return terminate(running[0].pid);
    await sleep(5);
  }
  throw new Error(`${marker} never ran`);
}

type Query = (...args: unknown[]) => Promise<unknown>;
/** The pg client behind a drizzle transaction, to cut its connection where a test wants it cut. */
const clientOf = (tx: Tx) => (tx as unknown as { session: { client: pg.PoolClient } }).session.client;
const textOf = (config: unknown) => (config as { text?: string }).text ?? String(config);
const lostError = () => new Error('Connection terminated unexpectedly');

describe.runIf(onPostgres)('a lost database connection', () => {
  it('runs a statement outside a transaction again on another connection', async () => {
    const answer = rows<{ one: number }>(database.db, sql`select pg_sleep(0.3), 1 as one /* lost-read */`);
    await terminateWhenRunning('lost-read');
    expect(await answer).toEqual([{ pg_sleep: '', one: 1 }]);
  });

  it('runs a transaction whose connection ended between statements again, once, and the process lives on', async () => {
    const before = await count();
    const pids: number[] = [];
    const result = await writeTransaction(database.db, async (tx) => {
      pids.push(await backendOf(tx));
      await tx.execute(sql`update lost_probe set n = n + 1 where id = 1`);
      if (pids.length === 1) {
        await terminate(pids[0] as number);
        // The backend's goodbye reaches the client while no statement runs: an 'error' event on a client
        // the pool has lent out, which ended the process before (no listener).
        await sleep(100);
      }
      await tx.execute(sql`update lost_probe set n = n + 1 where id = 1`);
      return 'done';
    });
    expect(result).toBe('done');
    expect(pids).toHaveLength(2);
    expect(pids[1]).not.toBe(pids[0]);
    expect(await count()).toBe(before + 2);
    // The pool dropped the dead connection: every connection it holds answers.
    const held = pool.totalCount;
    await Promise.all(Array.from({ length: held }, () => database.db.execute(sql`select 1`)));
  });

  it('runs a transaction whose statement was cut off again, once', async () => {
    const before = await count();
    let attempts = 0;
    const terminated = terminateWhenRunning('lost-in-tx');
    await writeTransaction(database.db, async (tx) => {
      attempts += 1;
      await tx.execute(sql`update lost_probe set n = n + 1 where id = 1`);
      if (attempts === 1) await tx.execute(sql`select pg_sleep(0.3) /* lost-in-tx */`);
    });
    await terminated;
    expect(attempts).toBe(2);
    expect(await count()).toBe(before + 1);
  });

  /** The work's transaction, its COMMIT handled by `atCommit` instead of the driver. */
  const cutAtCommit =
    (atCommit: (send: () => Promise<unknown>, client: pg.PoolClient) => Promise<unknown>) => (tx: Tx) => {
      const client = clientOf(tx);
      const query = client.query.bind(client) as Query;
      client.query = ((...args: unknown[]) =>
        textOf(args[0]) === 'commit'
          ? atCommit(() => query(...args), client)
          : query(...args)) as Query as never;
    };

  it('lost after COMMIT was applied: answers the work’s result and runs nothing twice', async () => {
    const before = await count();
    let attempts = 0;
    const result = await writeTransaction(database.db, async (tx) => {
      attempts += 1;
      if (attempts === 1)
        cutAtCommit(async (send, client) => {
          await send();
          (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
          throw lostError();
        })(tx);
      await tx.execute(sql`update lost_probe set n = n + 1 where id = 1`);
      return attempts;
    });
    expect(result).toBe(1);
    expect(attempts).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('lost before COMMIT reached PostgreSQL: reads that it rolled back, and runs it again once', async () => {
    const before = await count();
    let attempts = 0;
    const result = await writeTransaction(database.db, async (tx) => {
      attempts += 1;
      if (attempts === 1)
        cutAtCommit(async (_send, client) => {
          (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
          throw lostError();
        })(tx);
      await tx.execute(sql`update lost_probe set n = n + 1 where id = 1`);
      return attempts;
    });
    expect(result).toBe(2);
    expect(await count()).toBe(before + 1);
  });

  it('lost at COMMIT and the outcome cannot be read: CommitOutcomeUnknown, never a second run', async () => {
    const before = await count();
    let attempts = 0;
    const query = pool.query.bind(pool) as Query;
    // The database cannot be reached for the read-back either.
    pool.query = ((...args: unknown[]) =>
      textOf(args[0]).includes('pg_xact_status') ? Promise.reject(lostError()) : query(...args)) as never;
    try {
      const attempt = writeTransaction(database.db, async (tx) => {
        attempts += 1;
        cutAtCommit(async (send, client) => {
          await send();
          (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
          throw lostError();
        })(tx);
        await tx.execute(sql`update lost_probe set n = n + 1 where id = 1`);
      });
      await expect(attempt).rejects.toBeInstanceOf(CommitOutcomeUnknown);
    } finally {
      pool.query = query as never;
    }
    expect(attempts).toBe(1);
    expect(await count()).toBe(before + 1);
  });
});

describe('what counts as a lost connection', () => {
  it('the driver’s words, the socket’s codes and PostgreSQL’s SQLSTATEs, through drizzle’s wrapper', () => {
    const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });
    for (const lost of [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
    ]) {
      expect(isDatabaseUnavailable(lost), lost.message).toBe(true);
      expect(isDatabaseUnavailable(wrapped(lost)), lost.message).toBe(true);
    }
    for (const other of [
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      new Error('Not enough available credits in shared pool.'),
    ]) {
      expect(isDatabaseUnavailable(wrapped(other)), other.message).toBe(false);
    }
  });
});
