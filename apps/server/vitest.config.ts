import { defineConfig } from 'vitest/config';
import { ALL_FILES } from './test/suites.ts';

/** What every server test project shares (the root vitest.config.ts builds the projects of a whole run). */
export const serverTestOptions = {
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 120_000,
};

/** The server suite on its own (`npx vitest` in apps/server), on PGlite. */
export default defineConfig({
  test: {
    ...serverTestOptions,
    name: 'server',
    env: { ALLOT_TEST_DB: 'pglite' },
    include: ALL_FILES,
  },
});
