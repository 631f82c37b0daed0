import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { SERVER_PID_FILE } from '../../src/db/backup';
import { type Database, openPglite, openPostgres, type Tx } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { rows } from '../../src/db/rows';
import { balancesByKey, conservationViolations, ledgerViolations } from '../support/ledger';
import { createWorld, PASSWORD, type World } from '../support/world';

/**
 * Backups that restore (issue 35): the embedded database through `npm run backup` / `npm run restore`, and
 * PostgreSQL through the pg_dump / pg_restore recipe of docs/OPERATIONS.md. After a restore the ledger's
 * balances, the audit log and a sign-in are as they were.
 */
const onPostgres = process.env.ALLOT_TEST_DB === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);
const root = path.resolve(import.meta.dirname, '../../../..');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const tempDir = (label: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `allot-${label}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** The test world, and credits moved and an organization renamed through the API: journal and audit entries. */
async function seed(db: Tx): Promise<World> {
  const world = await createWorld(db);
  const app = await buildApp({ db: db as Database['db'] });
  try {
    const token = async (email: string) =>
      (
        await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } })
      ).json<{ secToken: string }>().secToken;
    const post = async (who: string, url: string, payload: object) => {
      const answer = await app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${who}` },
        payload,
      });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    const admin = await token(world.users.systemAdmin.email);
    const owner = await token(world.users.owner.email);
    await post(admin, '/api/credit/allocate/system', {
      organizationId: world.orgs.alpha,
      amount: 5000,
      toPool: 'shared',
      description: 'Before the backup',
    });
    await post(owner, '/api/credit/assign/organizations', {
      amount: 700,
      sourceOrganizationId: world.orgs.alpha,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [world.orgs.schoolA],
      toOrganizationPoolType: 'shared',
    });
    await post(owner, `/api/organization/${world.orgs.schoolB}/update`, {
      name: 'Alpha School B (renamed)',
      type: 'school',
      phoneNumber: '+1 555 010 0000',
    });
  } finally {
    await app.close();
  }
  return world;
}

/** What a restore must bring back. */
async function stateOf(db: Tx) {
  const [audit] = await rows<{ n: number; last: string }>(
    db,
    sql`select count(*)::int as n, max(id::text) as last from audit_events`,
  );
  return {
    balances: Object.fromEntries([...(await balancesByKey(db))].filter(([, v]) => v !== 0)),
    audit,
    violations: [...(await ledgerViolations(db)), ...(await conservationViolations(db))],
  };
}

/** On the restored database: the owner signs in, and a new move goes through (sequences, functions, triggers). */
async function worksAfterRestore(db: Tx, world: World) {
  const app = await buildApp({ db: db as Database['db'] });
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: world.users.owner.email, password: PASSWORD },
    });
    const move = await app.inject({
      method: 'POST',
      url: '/api/credit/transfer/pools',
      headers: { authorization: `Bearer ${login.json<{ secToken: string }>().secToken}` },
      payload: { organizationId: world.orgs.alpha, amount: 1, fromPool: 'shared', toPool: 'protected' },
    });
    return { login: login.statusCode, move: move.statusCode };
  } finally {
    await app.close();
  }
}

const npmRun = (script: string, args: string[], dataDir: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/scripts', script), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });

describe.runIf(!onPostgres)('npm run backup / restore (the embedded database)', () => {
  it('restores the ledger, the audit log and sign-in; refuses while a server runs or over a database', async () => {
    const dataDir = path.join(tempDir('backup-source'), 'data');
    let database = await openPglite({ dataDir });
    await migrate(database);
    const world = await seed(database.db);
    const before = await stateOf(database.db);
    expect(before.violations).toEqual([]);
    expect(before.audit?.n).toBeGreaterThan(0);
    await database.close();

    // A server on the directory: both wait for it to stop.
    writeFileSync(path.join(dataDir, SERVER_PID_FILE), String(process.pid));
    const busy = npmRun('backup.ts', [path.join(tempDir('refused'), 'x.tar.gz')], dataDir);
    expect(busy.status).toBe(1);
    expect(busy.stderr).toContain('Stop it first');
    rmSync(path.join(dataDir, SERVER_PID_FILE));

    const file = path.join(tempDir('backup-file'), 'allot.tar.gz');
    const backedUp = npmRun('backup.ts', [file], dataDir);
    expect(backedUp.status, backedUp.stderr).toBe(0);
    expect(backedUp.stdout).toContain(`to ${file}`);

    const restoredDir = path.join(tempDir('backup-target'), 'data');
    const restored = npmRun('restore.ts', [file], restoredDir);
    expect(restored.status, restored.stderr).toBe(0);
    database = await openPglite({ dataDir: restoredDir });
    try {
      expect(await stateOf(database.db)).toEqual(before);
      expect(await worksAfterRestore(database.db, world)).toEqual({ login: 200, move: 200 });
    } finally {
      await database.close();
    }

    // Over a database: only with --replace, and the one that was there is kept beside.
    const over = npmRun('restore.ts', [file], restoredDir);
    expect(over.status).toBe(1);
    expect(over.stderr).toContain('--replace');
    const replaced = npmRun('restore.ts', [file, '--replace'], restoredDir);
    expect(replaced.status, replaced.stderr).toBe(0);
    const kept = readdirSync(path.dirname(restoredDir)).filter((name) =>
      name.startsWith('data.before-restore-'),
    );
    expect(kept).toHaveLength(1);
    expect(existsSync(path.join(restoredDir, 'PG_VERSION'))).toBe(true);
  }, 240_000);
});

describe.runIf(onPostgres)('the pg_dump / pg_restore recipe (PostgreSQL)', () => {
  it('restores the ledger, the audit log and sign-in into a new database', async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const names = [`allot_backup_${process.pid}`, `allot_restored_${process.pid}`];
    for (const name of names) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
    const urlOf = (name: string) =>
      Object.assign(new URL(process.env.TEST_DATABASE_URL ?? ''), { pathname: `/${name}` }).toString();
    const [sourceUrl, targetUrl] = names.map(urlOf) as [string, string];
    const databases: Database[] = [];
    cleanups.push(async () => {
      for (const d of databases) await d.close();
      for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });

    const source = await openPostgres(sourceUrl, 2);
    databases.push(source);
    await migrate(source);
    const world = await seed(source.db);
    const before = await stateOf(source.db);
    expect(before.violations).toEqual([]);

    // docs/OPERATIONS.md, "Backups": the same two commands.
    const file = path.join(tempDir('pg-dump'), 'allot.dump');
    execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, sourceUrl]);
    execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${targetUrl}`, file]);

    const target = await openPostgres(targetUrl, 2);
    databases.push(target);
    expect(await stateOf(target.db)).toEqual(before);
    expect(await worksAfterRestore(target.db, world)).toEqual({ login: 200, move: 200 });
  }, 240_000);
});
