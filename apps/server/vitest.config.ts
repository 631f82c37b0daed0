import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    env: { ALLOT_TEST_DB: 'pglite' },
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
