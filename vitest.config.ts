import { defineConfig } from 'vitest/config';
import {
  ALL_FILES,
  ISOLATED_FILES,
  PGLITE_OWN_FILES,
  PGLITE_SMOKE_FILES,
} from './apps/server/test/suites.ts';
import { serverTestOptions } from './apps/server/vitest.config.ts';
import { TestOrder } from './test-order.ts';

/**
 * Every suite in one run (docs/TESTING.md). The server suite runs on PGlite and, when TEST_DATABASE_URL names
 * a PostgreSQL server, on it too (ALLOT_TEST_DB tells the test harness which); there the PGlite run keeps
 * only its own files and a smoke set, unless ALLOT_TEST_PGLITE=all.
 */
type Db = 'pglite' | 'postgres';
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);
const pgliteAll = !withPostgres || process.env.ALLOT_TEST_PGLITE === 'all';

function serverFiles(db: Db): string[] {
  return db === 'postgres' || pgliteAll ? ALL_FILES : [...PGLITE_OWN_FILES, ...PGLITE_SMOKE_FILES];
}

/** The shared-process project and the small one whose files each get their own process. */
const serverOn = (db: Db) => [
  {
    root: './apps/server',
    test: {
      ...serverTestOptions,
      name: `server:${db}`,
      env: { ALLOT_TEST_DB: db },
      include: serverFiles(db),
      exclude: ISOLATED_FILES,
      isolate: false,
    },
  },
  {
    root: './apps/server',
    test: {
      ...serverTestOptions,
      name: `server:${db}:isolated`,
      env: { ALLOT_TEST_DB: db },
      include: ISOLATED_FILES.filter(
        (file) => serverFiles(db) === ALL_FILES || serverFiles(db).includes(file),
      ),
      isolate: true,
    },
  },
];

export default defineConfig({
  test: {
    // Two cores.
    maxWorkers: 2,
    sequence: { sequencer: TestOrder },
    projects: [
      'packages/domain',
      'apps/web',
      ...serverOn('pglite'),
      ...(withPostgres ? serverOn('postgres') : []),
      'e2e',
    ],
  },
});
