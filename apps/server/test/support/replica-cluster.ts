import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL primary and a streaming replica of it, started from Debian's server binaries for one test file:
 * their own data directories under a temporary directory, their own free ports on 127.0.0.1, never the
 * machine's cluster. initdb refuses to run as root: as root (the CI), every binary runs as the `postgres` OS
 * user through `runuser`.
 */
export interface ReplicaCluster {
  primaryUrl: string;
  replicaUrl: string;
  /** What the replica logged (it logs every statement): the witness of where a read ran. */
  replicaLog(): string;
  stopReplica(): void;
  /** Starts the replica (with these server settings, `-c name=value …`) and waits until it has caught up. */
  startReplica(settings?: string): Promise<void>;
  /** Runs one statement on the replica as the superuser (pause or resume its replay). */
  onReplica(statement: string): Promise<void>;
  /** Waits until the replica has replayed everything the primary has written. */
  replicaCaughtUp(): Promise<void>;
  stop(): void;
}

const SERVER_BINARIES = ['initdb', 'pg_ctl', 'pg_basebackup'];

/** The newest /usr/lib/postgresql/<version>/bin that holds the server binaries, or null. */
function serverBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (SERVER_BINARIES.every((name) => existsSync(path.join(bin, name)))) return bin;
  }
  return null;
}

const asRoot = () => process.getuid?.() === 0;

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return null;
  }
}

/** Why this machine cannot start a primary and a replica (the test then says so when skipped), or null. */
export function replicaClusterUnavailable(): string | null {
  if (!serverBinaries()) {
    return `no PostgreSQL server binaries (${SERVER_BINARIES.join(', ')}) under /usr/lib/postgresql/*/bin`;
  }
  if (asRoot() && !postgresUser())
    return 'running as root, and there is no `postgres` OS user to run initdb as';
  if (asRoot() && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) {
    return 'running as root without runuser to run initdb as the `postgres` OS user';
  }
  return null;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  if (address.port === 5432) return freePort();
  return address.port;
}

export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const bin = serverBinaries();
  if (!bin) throw new Error('no PostgreSQL server binaries');
  const dir = mkdtempSync(path.join(tmpdir(), 'allot-replica-'));
  const owner = asRoot() ? postgresUser() : null;
  if (owner) chownSync(dir, owner.uid, owner.gid);

  const run = (binary: string, args: string[]) => {
    const command = path.join(bin, binary);
    const [file, argv] = owner ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    const result = spawnSync(file, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(
        `${binary} ${args.join(' ')} failed (${result.status}): ${result.stderr}${result.stdout}`,
      );
    }
  };
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const replicaLogFile = path.join(dir, 'replica.log');
  const settings = (port: number, extra: string) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 ${extra}`;
  const startServer = (dataDir: string, log: string, options: string) =>
    run('pg_ctl', ['-D', dataDir, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
  const stopServer = (dataDir: string, mode: 'fast' | 'immediate') => {
    if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
      run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
    }
  };
  const startReplicaServer = (extra: string) =>
    startServer(replicaDir, replicaLogFile, settings(replicaPort, `-c log_statement=all ${extra}`));

  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const primaryUrl = url(primaryPort, 'allot');
  const replicaUrl = url(replicaPort, 'allot');
  const query = async (connectionString: string, statement: string) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query(statement)).rows;
    } finally {
      await client.end();
    }
  };

  const cluster: ReplicaCluster = {
    primaryUrl,
    replicaUrl,
    replicaLog: () => (existsSync(replicaLogFile) ? readFileSync(replicaLogFile, 'utf8') : ''),
    stopReplica: () => stopServer(replicaDir, 'fast'),
    startReplica: async (extra = '') => {
      startReplicaServer(extra);
      await cluster.replicaCaughtUp();
    },
    onReplica: async (statement) => {
      await query(replicaUrl, statement);
    },
    replicaCaughtUp: async () => {
      const [{ lsn }] = (await query(primaryUrl, 'select pg_current_wal_flush_lsn()::text as lsn')) as [
        { lsn: string },
      ];
      for (const until = Date.now() + 30_000; Date.now() < until; ) {
        const [row] = (await query(
          replicaUrl,
          `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`,
        ).catch(() => [])) as { done: boolean | null }[];
        if (row?.done) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the replica did not catch up within 30 s');
    },
    stop: () => {
      for (const dataDir of [replicaDir, primaryDir]) {
        try {
          stopServer(dataDir, 'immediate');
        } catch {
          // Stopped already, or never started: the directory goes anyway.
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    startServer(primaryDir, path.join(dir, 'primary.log'), settings(primaryPort, ''));
    await query(url(primaryPort, 'postgres'), 'create database allot');
    // initdb's pg_hba.conf lets local replication connections in with `trust`, as every other.
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    await cluster.startReplica();
    return cluster;
  } catch (error) {
    cluster.stop();
    throw error;
  }
}
