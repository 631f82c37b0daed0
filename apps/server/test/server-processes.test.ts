import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type StartedServer, startServer } from '../../../bench/support/server';

const onPostgres = process.env.ALLOT_TEST_DB === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);
let server: StartedServer | null = null;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await server?.stop();
  server = null;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** `npm start`'s server (src/main.ts), once it says it is running. */
async function start(env: Record<string, string>) {
  server = await startServer(env);
  return server;
}

/** An empty database on the test PostgreSQL for a server to prepare, dropped after the test. */
async function freshPostgresDatabase(label: string) {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const name = `allot_${label}_${process.pid}`;
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  cleanups.push(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return { admin, name, url };
}

describe('server processes (WEB_CONCURRENCY)', () => {
  it.runIf(!onPostgres)(
    'runs one process on the embedded PGlite, and says why',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'allot-processes-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const started = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: '2', DATABASE_URL: '' });
      expect(started.output()).toContain('WEB_CONCURRENCY above 1 needs DATABASE_URL');
      expect(started.output()).toContain('embedded PGlite');
      expect((await fetch(`${started.url}/api/health`)).status).toBe(200);
      // A fresh PGlite data dir is migrated from scratch at start: 20 s alone here, more beside other suites.
    },
    90_000,
  );

  it.runIf(onPostgres)(
    'answers the metrics of every process, whichever one is asked',
    async () => {
      const { url } = await freshPostgresDatabase('metrics');
      const started = await start({
        DATABASE_URL: url.toString(),
        WEB_CONCURRENCY: '2',
        METRICS_TOKEN: 'scrape-me',
      });
      // A connection each, so both processes take some.
      for (let i = 0; i < 20; i++) {
        const answer = await fetch(`${started.url}/api/health`, { headers: { connection: 'close' } });
        expect(answer.status).toBe(200);
      }
      const series = 'allot_http_requests_total{method="GET",route="/api/health",status="200"}';
      for (let i = 0; i < 4; i++) {
        const scrape = await fetch(`${started.url}/api/metrics`, {
          headers: { authorization: 'Bearer scrape-me', connection: 'close' },
        });
        expect(scrape.status).toBe(200);
        const text = await scrape.text();
        expect(text).toMatch(/^allot_server_processes 2$/m);
        expect(text).toContain(`${series} 20\n`);
      }
      expect((await fetch(`${started.url}/api/metrics`)).status).toBe(401);
    },
    120_000,
  );

  it.runIf(onPostgres)(
    'runs two processes on PostgreSQL, prepares the database once, replaces a dead one',
    async () => {
      const { admin, name, url } = await freshPostgresDatabase('processes');
      const started = await start({ DATABASE_URL: url.toString(), WEB_CONCURRENCY: '2' });
      expect(started.output()).toContain('PostgreSQL, 2 server processes');
      // The generated sign-in is printed once, by the process that prepared the database.
      expect(started.output().match(/A system admin was created/g)).toHaveLength(1);
      for (let i = 0; i < 6; i++) expect((await fetch(`${started.url}/api/health`)).status).toBe(200);
      // Both processes hold connections: each opens its pool when it first needs it, so a loaded machine may
      // take a moment after the first answers.
      let connected = 0;
      for (let i = 0; i < 40 && connected < 2; i++) {
        const workers = await admin.query<{ pid: number }>(
          'select count(distinct pid)::int as pid from pg_stat_activity where datname = $1',
          [name],
        );
        connected = workers.rows[0]?.pid ?? 0;
        if (connected < 2) {
          await fetch(`${started.url}/api/health`);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      expect(connected).toBeGreaterThanOrEqual(2);

      // Kill one worker: the supervisor starts another and the port keeps answering.
      const workerPids = execSync(`pgrep -P ${started.pid}`)
        .toString()
        .trim()
        .split('\n')
        .map(Number)
        .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.ts'));
      expect(workerPids).toHaveLength(2);
      process.kill(workerPids[0] ?? 0, 'SIGKILL');
      for (let i = 0; i < 40 && !started.output().includes('starting another'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(started.output()).toContain('starting another');
      for (let i = 0; i < 6; i++) expect((await fetch(`${started.url}/api/health`)).status).toBe(200);

      process.kill(started.pid, 'SIGTERM');
      expect(await started.exited).toBe(0);
    },
    60_000,
  );
});
