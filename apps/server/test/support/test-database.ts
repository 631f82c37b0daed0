import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../../src/db/client';
import { deadlocksCounted } from './deadlocks';

export interface TestDatabase extends Database {
  /**
   * PostgreSQL only (PGlite runs one connection: nothing to deadlock with): ends this database's connections
   * and answers the deadlocks PostgreSQL detected in it (support/deadlocks.ts). The database takes no query
   * after it.
   */
  deadlocks?: () => Promise<number>;
}

/** A private copy of the migrated template: PGlite loaded from its dump, or a PostgreSQL database copy. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const template = inject('postgresTemplate');
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.ALLOT_TEST_DB === 'postgres' && template && url) {
    const name = `allot_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openPostgres(target.toString(), 10);
    let ended: Promise<void> | undefined;
    const end = () => {
      ended ??= database.close();
      return ended;
    };
    return {
      ...database,
      deadlocks: async () => {
        await end();
        return deadlocksCounted(admin, name);
      },
      close: async () => {
        await end();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dump = await readFile(inject('pgliteDumpPath'));
  return openPglite({ loadDataDir: new Blob([dump]) });
}
