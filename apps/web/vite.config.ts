import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = process.env.API_PORT ?? '3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://localhost:${apiPort}`, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: `http://localhost:${apiPort}`, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod and the line that turns off its compiled parsers (lib/zod-config.ts) in one chunk, zod-config
          // last: every chunk that builds a schema imports it, so the setting holds before the first schema is
          // built, however the other modules are split. Built before it, a schema probes `new Function`, which
          // the CSP reports (issue 36: a new page moved domain/errors.ts into a chunk evaluated earlier).
          groups: [
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]lib[\\/]zod-config\.ts$/ },
          ],
        },
      },
    },
  },
});
