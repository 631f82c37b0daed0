import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a migrated data dir dump each test file loads. */
    pgliteDumpPath: string;
    /** PostgreSQL: the migrated template database each test file copies. */
    postgresTemplate: string;
  }
}

/**
 * Migrates one template database per run: a PGlite dump, or with TEST_DATABASE_URL a PostgreSQL
 * template database. Each test file then starts from a copy, so files never share data.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (project.config.env?.ALLOT_TEST_DB === 'postgres') {
    if (!url) throw new Error('the postgres test project needs TEST_DATABASE_URL');
    const template = `allot_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const target = new URL(url);
    target.pathname = `/${template}`;
    const database = await openPostgres(target.toString(), 2);
    await migrate(database);
    await database.close();
    project.provide('postgresTemplate', template);
    project.provide('pgliteDumpPath', '');
    return async () => {
      await admin.query(`drop database if exists ${template}`);
      await admin.end();
    };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'allot-test-'));
  const database = await openPglite();
  await migrate(database);
  const dump = await database.dumpDataDir?.();
  if (!dump) throw new Error('PGlite cannot dump its data dir');
  const dumpPath = path.join(dir, 'template.tar');
  await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteDumpPath', dumpPath);
  project.provide('postgresTemplate', '');
  return () => rm(dir, { recursive: true, force: true });
}
