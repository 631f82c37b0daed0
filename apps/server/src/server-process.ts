import cluster from 'node:cluster';
import { buildApp } from './app';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { encryptPlainSecrets } from './features/auth/mfa-secrets';
import { ensureSystemAdmin } from './features/system-admin/ensure-admin';

/** Migrates and makes sure a system admin exists: once per start, before any process serves. */
async function prepareDatabase(database: Database, config: Config) {
  const applied = await migrate(database);
  if (applied.length > 0) console.log(`  database migrated: ${applied.join(', ')}`);
  const admin = await ensureSystemAdmin(database.db, {
    email: config.adminEmail,
    password: config.adminPassword,
  });
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
  // Before the app: its mail worker reads tables the migrations make.
  if (options.prepare) await prepareDatabase(database, config);
  const app = await buildApp({
    db: database.db,
    webDistDir: config.webDistDir,
    logger: { level: config.logLevel },
    trustProxy: process.env.TRUST_PROXY === 'true',
    publicUrl: config.publicUrl,
    invitationsPerDay: config.invitationsPerDay,
    invoiceMailsPerDay: config.invoiceMailsPerDay,
    invoicePayment: {
      payee: config.invoicePayee ?? null,
      instructions: config.invoicePaymentInstructions ?? null,
    },
    integrationRateLimitPerMinute: config.integrationRateLimitPerMinute,
    twoFactor: {
      requireSystemAdmins: config.requireSystemAdminMfa,
      encryptionKey: config.mfaEncryptionKey,
    },
    mail: { worker: {}, smtpUrl: config.smtpUrl, from: config.mailFrom },
    expiryReminders: {},
    insightsJobs: {},
  });

  const shutdown = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  await app.listen({ port: config.port, host: config.host });
  if (cluster.isPrimary) {
    announce(config, database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL');
  }
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
  const database = await openDatabase(config);
  await prepareDatabase(database, config);
  await database.close();

  let stopping = false;
  let listening = 0;
  cluster.on('listening', () => {
    listening++;
    if (listening === processes) announce(config, `PostgreSQL, ${processes} server processes`);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
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
