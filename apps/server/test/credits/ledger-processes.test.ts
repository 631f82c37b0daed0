import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type StartedServer, startServer } from '../../../../bench/support/server';
import { openPglite, openPostgres, type Tx } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import {
  type Answer,
  answeredKey,
  journalKey,
  oneByOne,
  randomMove,
  runCreditWorkload,
  type Send,
  type Who,
} from '../support/credit-workload';
import { deadlocksCounted } from '../support/deadlocks';
import { insertIntegrationKey } from '../support/integration';
import {
  balancesByKey,
  conservationViolations,
  journalSince,
  LedgerModel,
  ledgerViolations,
  type MoveRequest,
  seededRandom,
} from '../support/ledger';
import { createWorld, PASSWORD, type World } from '../support/world';

/**
 * The ledger across real server processes (issue 10, item 6; issue 31, item 6): on one PostgreSQL, the
 * randomized workload against two processes at once, without a deadlock; on PostgreSQL and on the embedded
 * PGlite of `npm start` (its data on disk), a process killed with SIGKILL in the middle of a load. Single and
 * batch consumptions run among the moves, and the credits are conserved after each.
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
  const keys = await integrationKeys(database.db, world);
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= database.close();
    return closed;
  };
  cleanups.push(async () => {
    await close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return {
    url: url.toString(),
    db: database.db,
    world,
    keys,
    /** PostgreSQL's count of deadlocks here, once the servers have stopped: ends the test's connections. */
    deadlocks: async () => {
      await close();
      return deadlocksCounted(admin, name);
    },
  };
}

/** Where a test's servers keep their data, and the test's own way into it between them. */
interface Prepared {
  env: Record<string, string>;
  world: World;
  keys: IntegrationKeys;
  /** Runs `read` on the database; for PGlite, only while no server has it open (one user at a time). */
  withDb: <T>(read: (db: Tx) => Promise<T>) => Promise<T>;
}

async function preparedPostgres(label: string): Promise<Prepared> {
  const { url, db, world, keys } = await preparedDatabase(label);
  return { env: { DATABASE_URL: url }, world, keys, withDb: (read) => read(db) };
}

/** A PGlite data directory with the schema and the test world, as `npm start` keeps it. */
async function preparedPglite(): Promise<Prepared> {
  const dataDir = mkdtempSync(join(tmpdir(), 'allot-ledger-kill-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const withDb = async <T>(read: (db: Tx) => Promise<T>): Promise<T> => {
    const database = await openPglite({ dataDir });
    try {
      return await read(database.db);
    } finally {
      await database.close();
    }
  };
  const database = await openPglite({ dataDir });
  await migrate(database);
  const world = await createWorld(database.db);
  const keys = await integrationKeys(database.db, world);
  await database.close();
  return { env: { DATABASE_URL: '', DATA_DIR: dataDir }, world, keys, withDb };
}

const nonZero = (balances: Map<string, number>) =>
  Object.fromEntries([...balances].filter(([, v]) => v !== 0));

async function started(env: Record<string, string>): Promise<StartedServer> {
  const server = await startServer(env);
  cleanups.push(() => server.stop());
  return server;
}

/** The classroom product's keys of Alpha District and Beta Network: their consumptions run among the moves. */
interface IntegrationKeys {
  alpha: string;
  beta: string;
}

async function integrationKeys(db: Tx, world: World): Promise<IntegrationKeys> {
  return {
    alpha: (await insertIntegrationKey(db, world.orgs.alpha)).key,
    beta: (await insertIntegrationKey(db, world.orgs.beta)).key,
  };
}

async function signIn(base: string, world: World, keys: IntegrationKeys): Promise<Record<Who, string>> {
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
    integration: keys.alpha,
    betaOwner: await token(world.users.betaOwner.email),
    betaIntegration: keys.beta,
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

/** 600 random moves and consumptions of the world, each with its own key. */
function keyedMoves(seed: number, world: World, prefix: string) {
  const random = seededRandom(seed);
  return Array.from({ length: 600 }, (_, i) => ({
    ...randomMove(random, world, { consumption: true }),
    key: `${prefix}-${i}`,
  }));
}
type KeyedMove = ReturnType<typeof keyedMoves>[number];

/** Where the journal stands before a load, and the model that will replay it. */
async function ledgerAtStart(withDb: Prepared['withDb']) {
  return withDb(async (db) => ({
    startingSeq: Math.max(0, ...(await journalSince(db, 0)).map((t) => t.seq)),
    model: new LedgerModel(await balancesByKey(db)),
  }));
}

/**
 * Sends every request from 16 clients at once: `answers` fills as they come back (`lost`: no answer, the
 * connection failed), `inFlight` holds those sent and not answered yet.
 */
function sendAll(requests: readonly KeyedMove[], send: Send) {
  const answers = new Map<string, Answer | 'lost'>();
  const inFlight = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const r = requests[next++] as KeyedMove;
      inFlight.add(r.key);
      try {
        answers.set(r.key, await send(r.who, r.request, r.key));
      } catch {
        answers.set(r.key, 'lost');
      }
      inFlight.delete(r.key);
    }
  };
  return { answers, inFlight, load: Promise.all(Array.from({ length: 16 }, worker)) };
}

/**
 * The journal since the load holds exactly the transactions the answers say were applied, each as the model
 * computes it from its request; the balances are the model's, and the ledger's rules and conservation hold.
 */
async function expectJournalOfTheAnswers(
  withDb: Prepared['withDb'],
  { startingSeq, model }: Awaited<ReturnType<typeof ledgerAtStart>>,
  answered: readonly { request: KeyedMove['request']; answer: Answer }[],
) {
  const byTransaction = new Map<string, MoveRequest>();
  for (const { request, answer } of answered) {
    for (const one of oneByOne(request, answer)) {
      const applied = answeredKey(one.request, one.answer);
      if (applied) byTransaction.set(applied, one.request);
    }
  }
  const { journal, balances, violations, conservation } = await withDb(async (db) => ({
    journal: await journalSince(db, startingSeq),
    balances: await balancesByKey(db),
    violations: await ledgerViolations(db),
    conservation: await conservationViolations(db),
  }));
  expect(journal.length).toBe(byTransaction.size);
  for (const entry of journal) {
    const request = byTransaction.get(journalKey(entry));
    expect(request, `journal transaction ${entry.id} answers a request`).toBeDefined();
    const expected = model.linesOf(request as MoveRequest);
    expect(expected, `the model accepts ${JSON.stringify(request)}`).not.toBeNull();
    model.apply(expected ?? []);
  }
  expect(nonZero(balances)).toEqual(nonZero(model.balances));
  expect(violations).toEqual([]);
  expect(conservation).toEqual([]);
}

/**
 * A server killed with SIGKILL in the middle of a load of moves, consumptions and repeats, each with its key:
 * every move is whole or absent, and after a restart every key is applied once.
 */
async function killedMidLoad(prepare: () => Promise<Prepared>) {
  const { env, world, keys, withDb } = await prepare();
  const atStart = await ledgerAtStart(withDb);
  let server = await started(env);
  const tokens = await signIn(server.url, world, keys);
  const send = httpSend(() => server.url, tokens);
  const requests = keyedMoves(99, world, 'kill');
  const { answers, load } = sendAll(requests, send);
  while ([...answers.values()].filter((a) => a !== 'lost').length < 150)
    await new Promise((r) => setTimeout(r, 20));
  process.kill(server.pid, 'SIGKILL');
  await server.exited;
  await load;
  const lost = requests.filter((r) => answers.get(r.key) === 'lost');
  expect(lost.length).toBeGreaterThan(0);
  // Right after the kill, before anything else runs: the ledger is whole, nothing lost, nothing doubled.
  expect(await withDb(ledgerViolations)).toEqual([]);
  expect(await withDb(conservationViolations)).toEqual([]);

  // A new process on the same database: every request is sent again with its key. An answered one answers
  // the same; a lost one either had committed (its first answer comes back) or runs now, never twice.
  server = await started(env);
  const final: { request: KeyedMove['request']; answer: Answer }[] = [];
  for (const r of requests) {
    const again = await send(r.who, r.request, r.key);
    const first = answers.get(r.key);
    // A 503 says nothing was changed (a connection the database refused under load): the key kept nothing,
    // and sent again the move runs, once (the journal is checked against the answers below).
    const retried = first === 'lost' || first?.status === 503;
    if (!retried) expect({ key: r.key, ...again }).toEqual({ key: r.key, ...first });
    expect([200, 422]).toContain(again.status);
    final.push({ request: r.request, answer: again });
  }
  expect(requests.some((r) => r.request.url === '/api/integration/consume')).toBe(true);
  expect(requests.some((r) => r.request.url === '/api/integration/consume/batch')).toBe(true);
  await server.stop();
  await expectJournalOfTheAnswers(withDb, atStart, final);
}

/**
 * A server asked to stop (SIGTERM) in the middle of a load (issue 35): it stops cleanly (exit code 0), every
 * request it was working on when told to stop was answered in full, and nothing was applied without its
 * answer: the journal holds exactly the moves answered as applied. A request sent after it stopped taking
 * connections fails to connect, or is answered `503` on a connection still open, and changed nothing.
 */
async function stoppedMidLoad(prepare: () => Promise<Prepared>) {
  const { env, world, keys, withDb } = await prepare();
  const atStart = await ledgerAtStart(withDb);
  const server = await started(env);
  const send = httpSend(() => server.url, await signIn(server.url, world, keys));
  const requests = keyedMoves(35, world, 'stop');
  const { answers, inFlight, load } = sendAll(requests, send);
  while (answers.size < 150) await new Promise((r) => setTimeout(r, 20));
  process.kill(server.pid, 'SIGTERM');
  const atStop = [...inFlight];
  expect(await server.exited).toBe(0);
  await load;
  const full = (key: string) => {
    const answer = answers.get(key);
    return answer !== 'lost' && answer?.status !== 503;
  };
  // The requests on their way when the server was told to stop: it finishes what it took, each with its full
  // answer. A request that was still in the socket when the server closed its idle connections (a keep-alive
  // race every HTTP server has, seen under heavy load) can fail or be answered 503 without being taken: the
  // journal check below shows it changed nothing. A server that stops at once answers almost none of them
  // (2 to 5 of 16 in the runs that checked this test), one that drains all or nearly all.
  expect(atStop.length).toBeGreaterThan(0);
  const finished = atStop.filter(full);
  expect(finished.length, `${finished.length} of ${atStop.length} finished`).toBeGreaterThanOrEqual(
    Math.ceil(atStop.length * 0.75),
  );
  const answered = requests.filter((r) => full(r.key));
  expect(answered.length).toBeGreaterThanOrEqual(150);
  expect(answered.length).toBeLessThan(requests.length);
  // Every full answer is one the calls give; a 503 is the stopping server's "try another" and changed nothing.
  for (const r of answered)
    expect([200, 400, 403, 404, 409, 422]).toContain((answers.get(r.key) as Answer).status);
  await expectJournalOfTheAnswers(
    withDb,
    atStart,
    answered.map((r) => ({ request: r.request, answer: answers.get(r.key) as Answer })),
  );
}

describe.runIf(onPostgres)('the credit ledger across server processes', () => {
  it('the randomized workload, consumptions (single and batches) among the moves, against two server processes at once, without a deadlock', async () => {
    const { url, db, world, keys, deadlocks } = await preparedDatabase('ledger_two');
    const server = await started({ DATABASE_URL: url, WEB_CONCURRENCY: '2' });
    expect(server.output()).toContain('2 server processes');
    const send = httpSend(() => server.url, await signIn(server.url, world, keys));
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
    expect(report.consumedInBatches).toBeGreaterThan(0);
    // A deadlock is retried by the server (db/transaction.ts), so no answer shows it: PostgreSQL counts it,
    // complete once every connection has ended.
    await server.stop();
    expect(await deadlocks()).toBe(0);
  }, 240_000);

  it(
    'a server process killed with SIGKILL mid-load: every move whole or absent, every key applied once',
    () => killedMidLoad(() => preparedPostgres('ledger_kill')),
    240_000,
  );

  it(
    'a server process stopped with SIGTERM mid-load: it finishes what it took, every move applied was answered',
    () => stoppedMidLoad(() => preparedPostgres('ledger_stop')),
    240_000,
  );
});

describe.runIf(!onPostgres)('the credit ledger of the embedded PGlite, its data on disk', () => {
  it(
    'a server killed with SIGKILL mid-load: every move whole or absent, every key applied once',
    () => killedMidLoad(preparedPglite),
    240_000,
  );

  it(
    'a server stopped with SIGTERM mid-load: it finishes what it took, every move applied was answered',
    () => stoppedMidLoad(preparedPglite),
    240_000,
  );
});
