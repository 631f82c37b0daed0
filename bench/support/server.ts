import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { processTree } from './proc';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const MAIN = new URL('../../apps/server/src/main.ts', import.meta.url).pathname;

export interface StartedServer {
  url: string;
  /** The server's process (with WEB_CONCURRENCY, the supervisor). */
  pid: number;
  /** All it has printed so far, standard output and error. */
  output: () => string;
  /** Resolves with its exit code. */
  exited: Promise<number | null>;
  /** The server's processes: it and, with WEB_CONCURRENCY, its server processes (from /proc). */
  pids: () => number[];
  /** SIGTERM, then waits for it to end; after `graceMs` (10 s), SIGKILL to it and its server processes. */
  stop: (graceMs?: number) => Promise<void>;
}

/**
 * Starts the real server (apps/server/src/main.ts) and waits until it says it is running (with
 * WEB_CONCURRENCY, once every server process listens). What it writes to standard error is passed on.
 * SERVER_NODE_ARGS passes flags to its Node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
 * `stdoutFile`: its standard output (the request log at LOG_LEVEL=info) goes to that file, as a deployed
 * server's would, rather than through a pipe into this process (which would spend CPU reading it).
 */
export async function startServer(
  env: Record<string, string>,
  options: { stdoutFile?: string } = {},
): Promise<StartedServer> {
  const port = await freePort();
  const stdoutFd = options.stdoutFile ? openSync(options.stdoutFile, 'w') : undefined;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.SERVER_NODE_ARGS ? process.env.SERVER_NODE_ARGS.split(' ') : []),
      '--import',
      'tsx',
      MAIN,
    ],
    {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
    },
  );
  if (stdoutFd !== undefined) closeSync(stdoutFd);
  let output = '';
  const printed = () =>
    options.stdoutFile ? `${readFileSync(options.stdoutFile, 'utf8')}${output}` : output;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  for (let waited = 0; !printed().includes('Allot is running'); waited += 100) {
    if (ended || waited > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`the server did not say it was running:\n${printed()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    output: printed,
    exited,
    pids: () => (child.pid ? processTree(child.pid) : []),
    stop: async (graceMs = 10_000) => {
      const tree = child.pid ? processTree(child.pid) : [];
      const alive = () => tree.filter((pid) => isAlive(pid));
      if (!ended) child.kill('SIGTERM');
      // The server processes too: a supervisor may end before them.
      const deadline = performance.now() + graceMs;
      while (alive().length > 0 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const pid of alive()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // ended meanwhile
        }
      }
      await exited;
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
