import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type StartedServer, startServer } from '../../../bench/support/server';
import { closeConnectionsOnStop } from '../src/server-process';

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

/** The ids of a supervisor's server processes (src/main.ts under the supervisor's Node). */
function serverProcessPids(supervisor: number): number[] {
  return execSync(`pgrep -P ${supervisor}`)
    .toString()
    .trim()
    .split('\n')
    .map(Number)
    .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.ts'));
}

const waitFor = async (done: () => boolean, what: string) => {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!done()) throw new Error(`still waiting for ${what}`);
};

/** A promise and its resolve (Node 20 has no Promise.withResolvers). */
function resolvable() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A sign-in that fails (no such account): answered `401` once its body is in. */
const LOGIN = JSON.stringify({ email: 'nobody@example.test', password: 'not-the-password' });

/** A client that keeps its connections alive between requests, as a load balancer or an HTTP library does. */
function keepAliveClient(base: string) {
  const agent = new http.Agent({ keepAlive: true });
  const closed = new Set<Socket>();
  const sockets = new Set<Socket>();
  agent.on('free', (socket: Socket) => {
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.once('close', () => closed.add(socket));
  });
  /** A request whose answer is read to its end: its status and `Connection` header. */
  /**
   * `body`: sent once `when` resolves. The request says `Expect: 100-continue`, and the server's `100 Continue`
   * (`taken`) says it has the request: from then on it is in flight until its body is in.
   */
  const send = (
    method: string,
    url: string,
    body?: { text: string; when: Promise<unknown>; taken?: () => void },
  ) =>
    new Promise<{ status: number; connection: string | undefined; socket: Socket }>((resolve, reject) => {
      const request = http.request(
        `${base}${url}`,
        {
          method,
          agent,
          headers: body
            ? {
                'content-type': 'application/json',
                'content-length': String(body.text.length),
                expect: '100-continue',
              }
            : {},
        },
        (response) => {
          // Taken now: the agent detaches a kept-alive connection from the answer once it is read.
          const socket = response.socket as Socket;
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, socket }),
          );
        },
      );
      request.on('error', reject);
      if (!body) return request.end();
      request.on('continue', () => {
        body.taken?.();
        void body.when.then(() => request.end(body.text));
      });
      request.flushHeaders();
    });
  const idle = () => Object.values(agent.freeSockets).flat() as Socket[];
  return { agent, send, idle, closed, close: () => agent.destroy() };
}

/**
 * Issue 51, item 4: a stop with a keep-alive client holding idle connections, and one request of it in flight
 * (its body still coming) when SIGTERM arrives. The server closes the idle connections, answers the request
 * in flight with `Connection: close` once its body is in, and exits 0 well inside the timeout. Before, that
 * connection stayed open after its answer, and the process waited the whole timeout and exited with 1.
 */
async function stopsWithKeepAliveClient(env: Record<string, string>) {
  const timeoutSeconds = 20;
  const started = await start({ ...env, SHUTDOWN_TIMEOUT_SECONDS: String(timeoutSeconds) });
  const client = keepAliveClient(started.url);
  cleanups.push(async () => client.close());
  // Four connections at once, then idle and kept open.
  const first = await Promise.all([1, 2, 3, 4].map(() => client.send('GET', '/api/health')));
  expect(first.map((a) => [a.status, a.connection])).toEqual(Array(4).fill([200, 'keep-alive']));
  expect(client.idle()).toHaveLength(4);

  const rest = resolvable();
  const taken = resolvable();
  const inFlight = client.send('POST', '/api/auth/login', {
    text: LOGIN,
    when: rest.promise,
    taken: taken.resolve,
  });
  // It takes one of the idle connections, and the server has it; the other three stay idle.
  await taken.promise;
  const idleAtStop = client.idle();
  expect(idleAtStop).toHaveLength(3);

  const stoppedAt = performance.now();
  process.kill(started.pid, 'SIGTERM');
  // The idle connections are closed by the server as it starts to stop.
  await waitFor(
    () => idleAtStop.every((socket) => client.closed.has(socket)),
    'the idle connections to close',
  );
  // The request in flight is answered, with `Connection: close`, and its connection closed.
  rest.resolve();
  const answer = await inFlight;
  expect(answer.status).toBe(401);
  expect(answer.connection).toBe('close');
  await waitFor(() => client.closed.has(answer.socket), 'the answered connection to close');
  const exitCode = await started.exited;
  const seconds = (performance.now() - stoppedAt) / 1000;
  expect(exitCode).toBe(0);
  // Well inside the timeout (the exit code alone says it did not run out).
  expect(seconds).toBeLessThan(timeoutSeconds / 2);
  expect(started.output()).not.toContain('still running after');
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

  it.runIf(!onPostgres)(
    'stops on SIGTERM with exit code 0 while a keep-alive client holds idle connections and a request in flight',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'allot-keep-alive-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      await stopsWithKeepAliveClient({ DATA_DIR: dataDir, DATABASE_URL: '' });
    },
    150_000,
  );

  it.runIf(onPostgres)(
    'two processes stop on SIGTERM with exit code 0 while a keep-alive client holds idle connections and a request in flight',
    async () => {
      const { url } = await freshPostgresDatabase('keep_alive');
      await stopsWithKeepAliveClient({ DATABASE_URL: url.toString(), WEB_CONCURRENCY: '2' });
    },
    120_000,
  );

  it.runIf(onPostgres)(
    'the supervisor exits with 1 when a server process had to cut a request at the timeout',
    async () => {
      const { url } = await freshPostgresDatabase('cut_stop');
      const started = await start({
        DATABASE_URL: url.toString(),
        WEB_CONCURRENCY: '2',
        SHUTDOWN_TIMEOUT_SECONDS: '1',
      });
      const client = keepAliveClient(started.url);
      cleanups.push(async () => client.close());
      expect((await client.send('GET', '/api/health')).status).toBe(200);
      // A request whose body never ends: the stop cannot finish it.
      const taken = resolvable();
      const never = client.send('POST', '/api/auth/login', {
        text: LOGIN,
        when: new Promise(() => {}),
        taken: taken.resolve,
      });
      never.catch(() => undefined);
      await taken.promise;
      process.kill(started.pid, 'SIGTERM');
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain('SIGTERM: requests or jobs still running after 1 s');
      await expect(never).rejects.toThrow();
    },
    120_000,
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
        expect(text).toMatch(/^allot_metrics_processes_answered 2$/m);
        expect(text).toMatch(/^allot_metrics_processes_expected 2$/m);
        expect(text).toContain(`${series} 20\n`);
      }
      expect((await fetch(`${started.url}/api/metrics`)).status).toBe(401);
    },
    120_000,
  );

  it.runIf(onPostgres)(
    'answers a scrape while a process is replaced, with the processes that answered',
    async () => {
      const { url } = await freshPostgresDatabase('metrics_start');
      const started = await start({
        DATABASE_URL: url.toString(),
        WEB_CONCURRENCY: '2',
        METRICS_TOKEN: 'scrape-me',
      });
      const scrape = async () => {
        const answer = await fetch(`${started.url}/api/metrics`, {
          headers: { authorization: 'Bearer scrape-me', connection: 'close' },
        });
        const text = await answer.text();
        const gauge = (name: string) => Number(text.match(new RegExp(`^${name} (\\d+)$`, 'm'))?.[1]);
        return {
          status: answer.status,
          answered: gauge('allot_metrics_processes_answered'),
          expected: gauge('allot_metrics_processes_expected'),
          summed: gauge('allot_server_processes'),
        };
      };
      expect(await scrape()).toEqual({ status: 200, answered: 2, expected: 2, summed: 2 });

      // One process dies; until its replacement listens, scrapes find one process. Before, a scrape then
      // waited 5 s for the one starting and answered 500.
      const [killed] = serverProcessPids(started.pid);
      process.kill(killed ?? 0, 'SIGKILL');
      await waitFor(() => started.output().includes('starting another'), 'the supervisor to start another');
      const scrapes: Awaited<ReturnType<typeof scrape>>[] = [];
      while (scrapes.length < 1000 && scrapes.at(-1)?.answered !== 2) scrapes.push(await scrape());
      for (const s of scrapes) {
        expect(s.status).toBe(200);
        expect(s.expected).toBe(2);
        expect(s.summed).toBe(s.answered);
      }
      expect(scrapes.filter((s) => s.answered === 1).length).toBeGreaterThan(0);
      expect(scrapes.at(-1)?.answered).toBe(2);
      expect(serverProcessPids(started.pid)).not.toContain(killed);
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
      const workerPids = serverProcessPids(started.pid);
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

describe('closeConnectionsOnStop', () => {
  it('closes idle connections at the stop, and each busy one once its answer is out', async () => {
    const release = resolvable();
    const streaming = resolvable();
    const slowTaken = resolvable();
    const server = http.createServer((request, response) => {
      if (request.url === '/quick') return response.end('ok');
      if (request.url === '/stream') {
        // Headers and a first part out before the stop; the rest after.
        response.writeHead(200);
        response.write('first part', () => streaming.resolve());
        void release.promise.then(() => response.end('last part'));
        return;
      }
      // Answered entirely after the stop.
      slowTaken.resolve();
      void release.promise.then(() => response.end('slow'));
    });
    const stop = closeConnectionsOnStop(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const client = keepAliveClient(`http://127.0.0.1:${port}`);
    cleanups.push(async () => {
      client.close();
      server.closeAllConnections();
    });
    await Promise.all([1, 2, 3].map(() => client.send('GET', '/quick')));
    const [idle] = client.idle();
    const stream = client.send('GET', '/stream');
    const slow = client.send('GET', '/slow');
    // Both taken by the server (a request still on its way to it would meet a closed connection).
    await Promise.all([streaming.promise, slowTaken.promise]);
    expect(client.idle()).toEqual([idle]);

    stop();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await waitFor(() => client.closed.has(idle as Socket), 'the idle connection to close');
    release.resolve();
    const [streamed, answered] = await Promise.all([stream, slow]);
    // Its headers were out before the stop: keep-alive, and yet its connection is closed once it ends.
    expect(streamed.connection).toBe('keep-alive');
    expect(answered.connection).toBe('close');
    // server.close() answers only when no connection is left.
    await closed;
    await waitFor(
      () => client.closed.has(streamed.socket) && client.closed.has(answered.socket),
      'both connections to close',
    );
  });
});
