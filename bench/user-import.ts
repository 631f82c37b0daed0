// Issue 5: one request imports 10,000 users (POST /api/user/bulk), on PGlite and on PostgreSQL, through the
// real server. Target: under 5 s on PostgreSQL, invitation mails queued (not sent inline). The file has the
// mistakes of a real one (duplicates, bad roles, bad emails); the preview of the same file is timed too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { rows } from '../apps/server/src/db/rows';
import { openLicense } from '../apps/server/src/features/licenses/ledger';
import { insertOrganization } from '../apps/server/src/features/organizations/tree';
import { databaseUrl } from './support/database-url';
import { startServer } from './support/server';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const TARGET_MS = 5_000;
const ADMIN = { email: 'bench-admin@allot.test', password: 'bench-admin-password' };
const PG_URL =
  process.env.BENCH_IMPORT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/allot_bench_import';

/** 10,000 rows: about 1 in 100 repeats an earlier email, 1 in 150 has a bad role, 1 in 200 a bad email. */
function importFile() {
  return Array.from({ length: ROWS }, (_, i) => {
    if (i % 100 === 99) return { email: `teacher-${i - 50}@bench.test`, name: `Repeat ${i}`, role: 'user' };
    if (i % 150 === 148) return { email: `teacher-${i}@bench.test`, name: `Teacher ${i}`, role: 'principal' };
    if (i % 200 === 197) return { email: `teacher-${i}.bench.test`, name: `Teacher ${i}`, role: 'user' };
    return {
      email: `teacher-${i}@bench.test`,
      name: `Teacher ${i}`,
      role: i % 20 === 0 ? 'organization_admin' : 'user',
    };
  });
}

async function prepare(database: Database): Promise<string> {
  await migrate(database);
  return database.db.transaction(async (tx) => {
    const id = await insertOrganization(tx, {
      name: 'Bench District',
      type: 'district',
      phoneNumber: '+1 555 000 0000',
      parentId: null,
    });
    await openLicense(
      tx,
      {
        organizationId: id,
        licenseType: 'chorus',
        expireAt: new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString(),
        seats: ROWS,
      },
      { action: 'created', description: 'Bench', actorId: null },
    );
    return id;
  });
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

async function run(
  label: string,
  env: Record<string, string>,
  organizationId: string,
  count: () => Promise<number>,
) {
  const server = await startServer({ ...env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { secToken } = (await login.json()) as { secToken: string };
    const call = (path: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secToken}` },
        body: JSON.stringify({ organizationId, users: importFile() }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown[]> }));
    const preview = await timed(() => call('/api/user/bulk/preview'));
    const imported = await timed(() => call('/api/user/bulk'));
    const added = (imported.value.body.added ?? []).length;
    const skipped = (imported.value.body.skipped ?? []).length;
    const mails = await count();
    const verdict = label === 'PostgreSQL' ? (imported.ms < TARGET_MS ? 'met' : 'NOT met') : 'no target';
    console.log(
      `${label.padEnd(10)} preview ${preview.ms.toFixed(0).padStart(6)} ms (${preview.value.status})` +
        `   import ${imported.ms.toFixed(0).padStart(6)} ms (${imported.value.status}): ${added} added, ${skipped} skipped, ` +
        `${mails} invitations queued   target < ${TARGET_MS} ms: ${verdict}`,
    );
    if (imported.value.status !== 200 || added + skipped !== ROWS)
      throw new Error(`unexpected answer on ${label}`);
  } finally {
    await server.stop();
  }
}

console.log(`importing ${ROWS} users in one request (preview first, then the import)`);

const dataDir = mkdtempSync(join(tmpdir(), 'allot-bench-import-'));
try {
  const lite = await openPglite({ dataDir });
  const liteOrg = await prepare(lite);
  await lite.close();
  await run('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' }, liteOrg, async () => {
    const reopened = await openPglite({ dataDir });
    const [row] = await rows<{ n: string }>(reopened.db, sql`select count(*) as n from mail_outbox`);
    await reopened.close();
    return Number(row?.n);
  });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const admin = new pg.Client({
  connectionString: databaseUrl(PG_URL, 'postgres'),
});
const reachable = await admin.connect().then(
  () => true,
  () => false,
);
if (!reachable) {
  console.log(`PostgreSQL skipped: nothing answers at ${PG_URL}`);
} else {
  const name = new URL(PG_URL).pathname.slice(1).replaceAll('"', '');
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const database = await openPostgres(PG_URL, 2);
  try {
    const organizationId = await prepare(database);
    await run('PostgreSQL', { DATABASE_URL: PG_URL }, organizationId, async () => {
      const [row] = await rows<{ n: string }>(database.db, sql`select count(*) as n from mail_outbox`);
      return Number(row?.n);
    });
  } finally {
    await database.close();
  }
}
