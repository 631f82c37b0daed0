import { defineConfig } from 'vitest/config';

/**
 * Every suite in one run. The server suite runs on PGlite always and, when TEST_DATABASE_URL names
 * a PostgreSQL server, a second time on it (ALLOT_TEST_DB tells the test harness which).
 */
const serverOn = (db: 'pglite' | 'postgres') => ({
  extends: './apps/server/vitest.config.ts',
  root: './apps/server',
  test: { name: `server:${db}`, env: { ALLOT_TEST_DB: db } },
});

export default defineConfig({
  test: {
    // Two cores: each server test file holds its own database copy.
    maxWorkers: 2,
    projects: [
      'packages/domain',
      'apps/web',
      serverOn('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverOn('postgres')] : []),
      'e2e',
    ],
  },
});
