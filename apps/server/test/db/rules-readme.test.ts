import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { openTestDatabase } from '../support/test-database';

/**
 * `src/db/README.md` lists every SQL function and trigger with the migration holding its live definition:
 * the list and a freshly migrated database agree both ways, and each migration named exists and names it,
 * the first of its row being the last migration that creates it.
 */
const DB_DIR = path.resolve(import.meta.dirname, '../../src/db');
const MIGRATIONS_DIR = path.join(DB_DIR, 'migrations');

interface Listed {
  kind: 'function' | 'trigger';
  name: string;
  /** A trigger's table. */
  table?: string;
  /** The migrations of the row's last column: the live definition first. */
  files: string[];
}

/** The rows of the README's tables headed `| Function |` and `| Trigger |`. */
function listedInReadme(): Listed[] {
  const listed: Listed[] = [];
  let kind: Listed['kind'] | undefined;
  for (const line of readFileSync(path.join(DB_DIR, 'README.md'), 'utf8').split('\n')) {
    if (!line.startsWith('|')) kind = undefined;
    else if (line.startsWith('| Function |')) kind = 'function';
    else if (line.startsWith('| Trigger |')) kind = 'trigger';
    else if (kind && line.startsWith('| `')) {
      const cells = line.split('|').slice(1, -1);
      const name = /^ `([a-z0-9_]+)[(`]/.exec(cells[0] ?? '')?.[1];
      const table = /^ `([a-z0-9_]+)`/.exec(cells[1] ?? '')?.[1];
      const files = [...(cells.at(-1) ?? '').matchAll(/`(\d{4}_[a-z0-9_]+\.sql)`/g)].map(
        (m) => m[1] as string,
      );
      if (!name || (kind === 'trigger' && !table))
        throw new Error(`db/README.md, a row without its name: ${line}`);
      listed.push({ kind, name, table: kind === 'trigger' ? table : undefined, files });
    }
  }
  return listed;
}

const migrations = readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const migrationText = (file: string) => readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');

/** What defines it: `create [or replace] function name(` or `create [constraint] trigger name`. */
function definition({ kind, name }: Listed): RegExp {
  return kind === 'function'
    ? new RegExp(`create\\s+(or\\s+replace\\s+)?function\\s+(public\\.)?${name}\\s*\\(`, 'i')
    : new RegExp(`create\\s+(constraint\\s+)?trigger\\s+${name}\\b`, 'i');
}

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** What one side has and the other lacks: both empty when they agree. */
function difference(readme: string[], database: string[]) {
  return {
    notInReadme: database.filter((name) => !readme.includes(name)).sort(),
    notInDatabase: readme.filter((name) => !database.includes(name)).sort(),
  };
}
const agree = { notInReadme: [], notInDatabase: [] };

/** The README lists exactly the live names, each once. */
function expectListedAsLive(names: string[], live: string[]) {
  expect(names.length).toBeGreaterThan(0);
  expect(difference(names, live)).toEqual(agree);
  expect(names).toHaveLength(live.length);
}

describe('db/README.md, the database rules', () => {
  const listed = listedInReadme();

  it('lists every function of the migrated database and no other', async () => {
    // Our functions: those of the public schema that no extension brought.
    const live = await rows<{ name: string }>(
      database.db,
      sql`select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and not exists (select 1 from pg_depend d
            where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`,
    );
    expectListedAsLive(
      listed.filter((l) => l.kind === 'function').map((l) => l.name),
      live.map((r) => r.name),
    );
  });

  it('lists every trigger of the migrated database, on its table, and no other', async () => {
    const live = await rows<{ name: string }>(
      database.db,
      sql`select c.relname || '.' || t.tgname as name from pg_trigger t
          join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and not t.tgisinternal`,
    );
    expectListedAsLive(
      listed.filter((l) => l.kind === 'trigger').map((l) => `${l.table}.${l.name}`),
      live.map((r) => r.name),
    );
  });

  it('names for each the migration with its live definition', () => {
    for (const entry of listed) {
      const at = `${entry.kind} ${entry.name}`;
      expect(entry.files.length, `${at}: no migration named`).toBeGreaterThan(0);
      for (const file of entry.files) {
        expect(existsSync(path.join(MIGRATIONS_DIR, file)), `${at}: ${file} does not exist`).toBe(true);
        expect(migrationText(file), `${at}: ${file} does not name it`).toMatch(
          new RegExp(`\\b${entry.name}\\b`, 'i'),
        );
      }
      const last = migrations.filter((file) => definition(entry).test(migrationText(file))).at(-1);
      expect(entry.files[0], `${at}: its live definition is in ${last}`).toBe(last);
    }
  });
});
