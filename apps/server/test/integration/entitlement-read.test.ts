import type { Entitlement } from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import {
  createPerson,
  createSchool,
  insertIntegrationKey,
  join,
  licence,
  mint,
} from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';

/**
 * GET /api/integration/entitlement is a read (issue 31): on its common path it writes no row and opens no
 * transaction, in one statement (the process reads the key once a second, and the entitlement's statement
 * confirms it: key-auth.ts). What is left that writes,
 * and not on every call: the key's `lastUsedAt` (once a minute) and the rate limit's block (once a block of
 * calls per process).
 */
let t: TestApp;
let key: { id: string; key: string };
let email: string;

beforeAll(async () => {
  t = await createTestApp();
  const school = await createSchool(t.db, 'Read School', t.world.orgs.alpha);
  const teacher = await createPerson(t.db, 'reader@read.test');
  await join(t.db, teacher.id, school, await licence(t.db, school));
  await mint(t.db, { sharedOf: school }, 50);
  email = teacher.email;
  key = await insertIntegrationKey(t.db, t.world.orgs.alpha, 'Reads');
});
afterAll(() => t.close());

const check = () =>
  t.app.inject({
    method: 'GET',
    url: '/api/integration/entitlement',
    query: { email },
    headers: bearer(key.key),
  });

/** The statements the app sends while `work` runs, and the transactions it opens (either driver). */
async function sentDuring(db: Db, work: () => Promise<void>) {
  const statements: string[] = [];
  let transactions = 0;
  type Method = (...args: unknown[]) => unknown;
  const client = (db as unknown as { $client: Record<'query' | 'connect' | 'transaction', Method> }).$client;
  const original = { query: client.query, connect: client.connect, transaction: client.transaction };
  client.query = (...args) => {
    const first = args[0];
    statements.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
    return original.query.apply(client, args);
  };
  const onPostgres = (client as unknown) instanceof pg.Pool;
  if (onPostgres) {
    // pg-pool's own `query` takes a connection with a callback; a transaction takes one without.
    client.connect = (...args) => {
      if (typeof args[0] !== 'function') transactions++;
      return original.connect.apply(client, args);
    };
  } else {
    client.transaction = (...args) => {
      transactions++;
      return original.transaction.apply(client, args);
    };
  }
  try {
    await work();
  } finally {
    Object.assign(client, original);
  }
  return { statements, transactions };
}

/** Makes every connection of the app publish its statistics now (each flushes when it next goes idle). */
async function flushStatistics(db: Db) {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    const connections = await Promise.all(Array.from({ length: client.totalCount }, () => client.connect()));
    try {
      for (const connection of connections) await connection.query('select pg_stat_force_next_flush()');
    } finally {
      for (const connection of connections) connection.release();
    }
  } else {
    await db.execute(sql`select pg_stat_force_next_flush()`);
  }
}

/** Rows inserted, updated and deleted in the database's own tables so far. */
async function rowsWritten(db: Db): Promise<number> {
  await flushStatistics(db);
  const [row] = await rows<{ written: number | string }>(
    db,
    sql`select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) as written from pg_stat_user_tables`,
  );
  return Number(row?.written);
}

describe('the entitlement call on its common path', () => {
  it('writes no row, opens no transaction, and sends one statement a call (the key read once a second)', async () => {
    // The first call writes what is written once: the key's lastUsedAt and this process's block of calls.
    const first = await check();
    expect(first.json<Entitlement>().entitled).toBe(true);
    const before = await rowsWritten(t.db);
    const calls = 40;
    const started = performance.now();
    const sent = await sentDuring(t.db, async () => {
      for (let i = 0; i < calls; i += 5) {
        const answers = await Promise.all(Array.from({ length: 5 }, check));
        for (const answer of answers) expect(answer.json<Entitlement>().entitled).toBe(true);
      }
    });
    expect(await rowsWritten(t.db)).toBe(before);
    expect(sent.transactions).toBe(0);
    expect(sent.statements.filter((text) => /\b(insert|update|delete)\b|^\s*begin/i.test(text))).toEqual([]);
    const seconds = (performance.now() - started) / 1000;
    const keyReads = sent.statements.filter((text) => /key_hash/.test(text)).length;
    expect(sent.statements.length - keyReads).toBe(calls);
    expect(keyReads).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });
});
