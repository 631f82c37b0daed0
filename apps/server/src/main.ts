import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { ensureSystemAdmin } from './features/system-admin/ensure-admin';

const config = loadConfig();
const database = await openDatabase(config);
const applied = await migrate(database);
const app = await buildApp({
  db: database.db,
  webDistDir: config.webDistDir,
  logger: { level: config.logLevel },
  trustProxy: process.env.TRUST_PROXY === 'true',
});
if (applied.length > 0) app.log.info({ applied }, 'database migrated');

const admin = await ensureSystemAdmin(database.db, {
  email: config.adminEmail,
  password: config.adminPassword,
});
if (admin.kind === 'generated') {
  // Printed once, on the start that created the account; only its hash is stored.
  console.log(
    `\n  A system admin was created. Sign in with:\n    email:    ${admin.email}\n    password: ${admin.password}\n  (shown only this once; set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)\n`,
  );
}

const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
console.log(
  `\n  Allot is running on http://localhost:${config.port}  (API docs: /api/docs, database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'})\n`,
);
