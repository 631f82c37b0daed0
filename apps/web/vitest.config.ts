import { defineConfig } from 'vitest/config';

/** Pure modules of the web app (no DOM): what a browser test would check only slowly, edge by edge. */
export default defineConfig({
  test: { name: 'web', include: ['src/**/*.test.ts'], environment: 'node' },
});
