import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type StartedServer, startServer } from '../../../../bench/support/server';
import { openPostgres } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import {
  type Answer,
  answeredKey,
  journalKey,
  randomMove,
  runCreditWorkload,
  type Send,
  type Who,
} from '../support/credit-workload';
import { insertIntegrationKey } from '../support/integration';
import {
  balancesByKey,
  journalSince,
  LedgerModel,
  ledgerViolations,
  type MoveRequest,
  seededRandom,
} from '../support/ledger';
import { createWorld, PASSWORD, type World } from '../support/world';

/**
 * The ledger across real server processes on one PostgreSQL (issue 10, item 6): the randomized workload
 * against two processes at once, and a process killed with SIGKILL in the middle of a load.
 */
const onPostgres = process.env.ALLOT_TEST_DB === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new database with the schema and the test world, for servers started on it. */
async function preparedDatabase(label: string) {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const name = `allot_${label}_${process.pid}`;
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 4);
  await migrate(database);
  const world = await createWorld(database.db);
  // The classroom product's key of Alpha District: its consumptions run among the moves (issue 15).
  const integrationKey = (await insertIntegrationKey(database.db, world.orgs.alpha)).key;
  cleanups.push(async () => {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return { url: url.toString(), db: database.db, world, integrationKey };
}

const nonZero = (balances: Map<string, number>) =>
  Object.fromEntries([...balances].filter(([, v]) => v !== 0));

async function started(env: Record<string, string>): Promise<StartedServer> {
  const server = await startServer(env);
  cleanups.push(() => server.stop());
  return server;
}

async function signIn(base: string, world: World, integrationKey: string): Promise<Record<Who, string>> {
  const token = async (email: string) => {
    const response = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    return ((await response.json()) as { secToken: string }).secToken;
  };
  return {
    owner: await token(world.users.owner.email),
    systemAdmin: await token(world.users.systemAdmin.email),
    integration: integrationKey,
  };
}

function httpSend(base: () => string, tokens: Record<Who, string>): Send {
  return async (who, request, key) => {
    const response = await fetch(`${base()}${request.url}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${tokens[who]}`,
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify(request.body),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
}

describe.runIf(onPostgres)('the credit ledger across server processes', () => {
  it('the randomized workload, consumptions among the moves, against two server processes at once', async () => {
    const { url, db, world, integrationKey } = await preparedDatabase('ledger_two');
    const server = await started({ DATABASE_URL: url, WEB_CONCURRENCY: '2' });
    expect(server.output()).toContain('2 server processes');
    const send = httpSend(() => server.url, await signIn(server.url, world, integrationKey));
    const failures: string[] = [];
    const report = await runCreditWorkload({
      send,
      db,
      world,
      seed: 7,
      rounds: 20,
      concurrency: 30,
      consumption: true,
      fail: (message) => failures.push(message),
    });
    expect(failures.slice(0, 10)).toEqual([]);
    expect(report.applied).toBeGreaterThan(100);
    expect(report.refused).toBeGreaterThan(10);
    expect(report.consumed).toBeGreaterThan(20);
  }, 240_000);

  it('a server process killed with SIGKILL mid-load: every move whole or absent, every key applied once', async () => {
    const { url, db, world, integrationKey } = await preparedDatabase('ledger_kill');
    let server = await started({ DATABASE_URL: url });
    const tokens = await signIn(server.url, world, integrationKey);
    const send = httpSend(() => server.url, tokens);
    const random = seededRandom(99);
    const requests = Array.from({ length: 600 }, (_, i) => ({
      ...randomMove(random, world, { consumption: true }),
      key: `kill-${i}`,
    }));
    const answers = new Map<string, Answer | 'lost'>();
    const startingSeq = Math.max(0, ...(await journalSince(db, 0)).map((t) => t.seq));
    const modelAtStart = new LedgerModel(await balancesByKey(db));

    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++] as (typeof requests)[number];
        try {
          answers.set(r.key, await send(r.who, r.request, r.key));
        } catch {
          answers.set(r.key, 'lost');
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, worker));
    while ([...answers.values()].filter((a) => a !== 'lost').length < 150)
      await new Promise((r) => setTimeout(r, 20));
    process.kill(server.pid, 'SIGKILL');
    await load;
    const lost = requests.filter((r) => answers.get(r.key) === 'lost');
    expect(lost.length).toBeGreaterThan(0);
    // Right after the kill, before anything else runs: the ledger is whole.
    expect(await ledgerViolations(db)).toEqual([]);

    // A new process on the same database: every request is sent again with its key. An answered one answers
    // the same; a lost one either had committed (its first answer comes back) or runs now, never twice.
    server = await started({ DATABASE_URL: url });
    const final = new Map<string, Answer>();
    for (const r of requests) {
      const again = await send(r.who, r.request, r.key);
      const first = answers.get(r.key);
      if (first !== 'lost') expect({ key: r.key, ...again }).toEqual({ key: r.key, ...first });
      expect([200, 422]).toContain(again.status);
      final.set(r.key, again);
    }
    const byTransaction = new Map<string, MoveRequest>();
    for (const r of requests) {
      const answer = final.get(r.key);
      const applied = answer && answeredKey(r.request, answer);
      if (applied) byTransaction.set(applied, r.request);
    }
    expect(requests.some((r) => r.request.url === '/api/integration/consume')).toBe(true);
    const journal = await journalSince(db, startingSeq);
    expect(journal.length).toBe(byTransaction.size);
    for (const entry of journal) {
      const request = byTransaction.get(journalKey(entry));
      expect(request, `journal transaction ${entry.id} answers a request`).toBeDefined();
      const expected = modelAtStart.linesOf(request as MoveRequest);
      expect(expected, `the model accepts ${JSON.stringify(request)}`).not.toBeNull();
      modelAtStart.apply(expected ?? []);
    }
    expect(nonZero(await balancesByKey(db))).toEqual(nonZero(modelAtStart.balances));
    expect(await ledgerViolations(db)).toEqual([]);
  }, 240_000);
});
