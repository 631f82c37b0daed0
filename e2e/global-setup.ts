import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import './support/context';
import { E2E_INVOICE_PAYEE, E2E_INVOICE_PAYMENT_INSTRUCTIONS } from './support/invoice-payment';

const ROOT = new URL('..', import.meta.url).pathname;
const OUTPUT_DIR = join(ROOT, 'e2e/.output');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const ADMIN_EMAIL = 'admin@allot.test';
const ADMIN_PASSWORD = 'e2e-Admin-Password-2024!';
const HEALTH_TIMEOUT_MS = 90_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, label: string): void {
  const result = spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', stdio: 'pipe' });
  if (result.status !== 0) {
    throw new Error(`${label} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}

async function waitForHealth(baseUrl: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`GET ${baseUrl}/api/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000}s`);
}

function stop(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.exitCode !== null || server.pid === undefined) return resolve();
    const pid = server.pid;
    const force = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 5_000);
    server.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      clearTimeout(force);
      resolve();
    }
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const { DATABASE_URL: _db, SMTP_URL: _smtp, WEB_DIST_DIR: webDist, ...inherited } = process.env;
  // WEB_DIST_DIR: the web app is built there and served from there (the server's own setting), so a run
  // leaves apps/web/dist, and another run in the same working tree, alone.
  const distDir = webDist ? resolve(ROOT, webDist) : undefined;
  if (distDir) inherited.WEB_DIST_DIR = distDir;

  if (process.env.E2E_SKIP_BUILD !== '1') {
    const outDir = distDir ? ['--', '--outDir', distDir, '--emptyOutDir'] : [];
    // The build a person gets: vitest sets NODE_ENV=test, which would build React's development bundle
    // (several times slower to render, and not what is served in production).
    run(
      'npm',
      ['run', 'build', '-w', 'apps/web', ...outDir],
      { ...inherited, NODE_ENV: 'production' },
      'Building the web app',
    );
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'allot-e2e-'));
  const port = await freePort();
  // The server sends through SMTP to this port; the mail tests listen on it (a real SMTP server,
  // started by the test file). Mail queued while nobody listens waits in the outbox and is retried.
  const smtpPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    // Whom invoices are paid to and how (issue 33): as an operator writes them in an env file, `\n` a break.
    INVOICE_PAYEE: E2E_INVOICE_PAYEE,
    INVOICE_PAYMENT_INSTRUCTIONS: E2E_INVOICE_PAYMENT_INSTRUCTIONS.replaceAll('\n', '\\n'),
  };

  run(TSX, ['apps/server/src/seed/demo.ts'], env, 'Seeding the demo data');

  const log = createWriteStream(join(OUTPUT_DIR, 'server.log'));
  const server = spawn(TSX, ['apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, server);
  } catch (error) {
    await stop(server);
    throw new Error(`${(error as Error).message}. See e2e/.output/server.log`);
  }

  project.provide('baseUrl', baseUrl);
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('smtpPort', smtpPort);

  return async () => {
    await stop(server);
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
