import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Vitest's 1 s default is shorter than one list's refetch when the full CI run loads both cores.
    expect: { poll: { timeout: 10_000 } },
    fileParallelism: false,
    // Runs after the other projects, one file at a time: it drives one real server and browser.
    sequence: { groupOrder: 1 },
    environment: 'node',
  },
});
