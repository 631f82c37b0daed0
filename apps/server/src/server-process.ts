import cluster from 'node:cluster';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from './app';
import type { Config } from './config';
import { markServing } from './db/backup';
import { type Database, openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { endSystemAdminSessionsWithoutMfa } from './features/auth';
import { encryptPlainSecrets } from './features/auth/mfa-secrets';
import { defaultConsumeTransactions } from './features/integration/consume-queue';
import { ensureSystemAdmin } from './features/system-admin/ensure-admin';
import { answerClusterMetrics, serveClusterMetrics } from './lib/metrics';

/** Migrates and makes sure a system admin exists: once per start, before any process serves. */
async function prepareDatabase(database: Database, config: Config) {
  const applied = await migrate(database);
  if (applied.length > 0) console.log(`  database migrated: ${applied.join(', ')}`);
  const admin = await ensureSystemAdmin(database.db, {
    email: config.adminEmail,
    password: config.adminPassword,
  });
  if (config.requireSystemAdminMfa) {
    // Sessions opened before the requirement was set end: it holds for every session (CONTRACT §3).
    const ended = await endSystemAdminSessionsWithoutMfa(database.db);
    if (ended > 0)
      console.log(`  REQUIRE_SYSTEM_ADMIN_MFA: ${ended} system admin sessions without two-factor ended`);
  }
  if (config.mfaEncryptionKey) {
    const sealed = await encryptPlainSecrets(database.db, config.mfaEncryptionKey);
    if (sealed > 0) console.log(`  two-factor secrets encrypted with MFA_ENCRYPTION_KEY: ${sealed}`);
  }
  if (admin.kind === 'generated') {
    // Printed once, on the start that created the account; only its hash is stored.
    const twoFactor = config.requireSystemAdminMfa
      ? '  REQUIRE_SYSTEM_ADMIN_MFA is on: the first sign-in sets up two-factor with an authenticator app.\n'
      : '';
    console.log(
      `\n  A system admin was created. Sign in with:\n    email:    ${admin.email}\n    password: ${admin.password}\n  (shown only this once; set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)\n${twoFactor}`,
    );
  }
}

function announce(config: Config, database: string) {
  console.log(
    `\n  Allot is running on http://localhost:${config.port}  (API docs: /api/docs, database: ${database})\n`,
  );
}

/** One server process: the API and the web app on `config.port`. */
export async function serve(config: Config, options: { prepare: boolean }) {
  const database = await openDatabase(config);
  // `npm run backup` and `restore` wait for the embedded database to be free (db/backup.ts).
  if (database.kind === 'pglite') markServing(config.dataDir);
  // Before the app: its mail worker reads tables the migrations make.
  if (options.prepare) await prepareDatabase(database, config);
  const processState = { stopping: false };
  const app = await buildApp({
    db: database.db,
    reads: database.reads,
    webDistDir: config.webDistDir,
    logger: { level: config.logLevel },
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    invitationsPerDay: config.invitationsPerDay,
    invoiceMailsPerDay: config.invoiceMailsPerDay,
    invoicePayment: {
      payee: config.invoicePayee ?? null,
      instructions: config.invoicePaymentInstructions ?? null,
    },
    integrationRateLimitPerMinute: config.integrationRateLimitPerMinute,
    consumeTransactions: config.consumeTransactions ?? defaultConsumeTransactions(config.processes),
    signIn: {
      requireSystemAdmins: config.requireSystemAdminMfa,
      encryptionKey: config.mfaEncryptionKey,
      sessionMaxDays: config.sessionMaxDays,
    },
    mail: { worker: {}, smtpUrl: config.smtpUrl, from: config.mailFrom },
    expiryReminders: {},
    insightsJobs: {},
    pruning: {},
    processState,
    metricsToken: config.metricsToken,
    publicConfig: config.publicConfig,
  });
  answerClusterMetrics(config.processes);
  const endKeepAlive = closeConnectionsOnStop(app.server);

  const shutdown = (signal: NodeJS.Signals) => {
    if (processState.stopping) return;
    processState.stopping = true;
    endKeepAlive();
    void stopServing(app, database, config.shutdownTimeoutMs, signal).then((clean) =>
      process.exit(clean ? 0 : 1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  await app.listen({ port: config.port, host: config.host });
  if (cluster.isPrimary) {
    announce(
      config,
      database.kind === 'pglite'
        ? `embedded PGlite in ${config.dataDir}`
        : `PostgreSQL${database.reads ? ' and a read replica' : ''}`,
    );
  }
}

/**
 * Keep-alive ends with the stop (issue 51). The function returned starts it: from then on every answer says
 * `Connection: close` (an answer already on its way gets it too unless its headers are out; Node closes the
 * connection once such an answer is sent), and each connection that becomes idle is closed: once its answer
 * is sent and its request read to the end. The connections idle when the stop starts are closed by
 * `server.close()` (Fastify's, in `app.close()`), a moment later. Before, a keep-alive client's connection
 * whose request was in flight at the stop stayed open after its answer (Fastify's keep-alive timeout is 72 s),
 * and the process waited the whole `SHUTDOWN_TIMEOUT_SECONDS` for it, then exited with 1.
 */
export function closeConnectionsOnStop(server: Server): () => void {
  const answering = new Set<ServerResponse>();
  let stopping = false;
  /**
   * After an answer and its request are done, while stopping: the connection is idle unless the client sent
   * the next request already (its answer is then under way, and says `Connection: close`). Closed gently:
   * what is still in the socket's buffers goes out first. (`closeIdleConnections` would close, too, a
   * connection whose answer is ended but not yet flushed: a long export cut short.)
   */
  const closeIfIdle = (request: IncomingMessage, response: ServerResponse) => {
    if (!stopping || !request.complete || !response.writableFinished) return;
    const socket = request.socket as Socket & { _httpMessage?: unknown };
    if (!socket._httpMessage) socket.destroySoon();
  };
  server.prependListener('request', (request, response) => {
    if (stopping) response.setHeader('connection', 'close');
    answering.add(response);
    // Emitted once the answer is sent, or its connection closed.
    response.once('close', () => {
      answering.delete(response);
      closeIfIdle(request, response);
    });
    // Emitted once the request is read to its end: an answer sent before that (a `401` before the body)
    // leaves the connection busy until then.
    request.once('close', () => closeIfIdle(request, response));
  });
  return () => {
    stopping = true;
    for (const response of answering) if (!response.headersSent) response.setHeader('connection', 'close');
  };
}

/**
 * A process asked to stop: it takes no new connection (Fastify answers `503` to a request that arrives on a
 * connection already open; `closeConnectionsOnStop` ends keep-alive), lets the requests in flight finish and
 * its jobs end their run (`app.close()`), then closes its database pool. What is still running after
 * `timeoutMs` is cut: its connections closed, a line in the log, and false (the exit code says the stop was
 * not clean). A write cut that way is rolled back by PostgreSQL, or committed whole: never half.
 */
async function stopServing(
  app: Awaited<ReturnType<typeof buildApp>>,
  database: Database,
  timeoutMs: number,
  signal: string,
): Promise<boolean> {
  const closed = app.close().then(() => true);
  const clean = await Promise.race([closed, sleep(timeoutMs, false, { ref: false })]);
  if (!clean) {
    console.error(
      `  ${signal}: requests or jobs still running after ${timeoutMs / 1000} s; closing their connections`,
    );
    app.server.closeAllConnections();
  }
  await database.close().catch(() => undefined);
  return clean;
}

/**
 * WEB_CONCURRENCY > 1 (PostgreSQL only): this process prepares the database, then runs that many server
 * processes sharing the port (node:cluster) and replaces any that dies. They share nothing but the database.
 *
 * The server processes accept connections themselves from the one listening socket (`SCHED_NONE`) rather
 * than being handed them by this process (Node's default round robin). Handed over, a connection that is on
 * its way to a process killed at that instant stays open in this process with nobody to answer it, until
 * the client gives up (1 request in about 6,000 at a `kill -9` under load, issue 30). Accepted by the
 * process itself, its connections close when it dies, and the client sees a reset at once; connections
 * not yet accepted wait in the socket's queue for another process. `NODE_CLUSTER_SCHED_POLICY=rr` keeps
 * the round robin. See docs/decisions/005, "A server process killed mid-request".
 */
export async function superviseWorkers(config: Config, processes: number) {
  if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
  // The primary only: preparing writes, and the server processes open their own pools (a replica's too).
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await prepareDatabase(database, config);
  await database.close();

  serveClusterMetrics(processes);
  let stopping = false;
  let running = 0;
  let uncleanStops = 0;
  let listening = 0;
  cluster.on('listening', () => {
    listening++;
    if (listening === processes)
      announce(
        config,
        `PostgreSQL${config.databaseReadUrl ? ' and a read replica' : ''}, ${processes} server processes`,
      );
  });
  cluster.on('fork', () => running++);
  cluster.on('exit', (worker, code, signal) => {
    running--;
    if (stopping) {
      // A process that had not yet set up its own stop ends by the signal itself: it served nothing.
      if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') uncleanStops++;
      // The supervisor's exit code says whether every server process stopped cleanly.
      if (running === 0) process.exit(uncleanStops > 0 ? 1 : 0);
      return;
    }
    console.error(`  server process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    cluster.fork();
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let i = 0; i < processes; i++) cluster.fork();
}
