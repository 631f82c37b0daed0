import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openPglite } from './client';

/**
 * Backups of the embedded database (`npm run backup` / `npm run restore`, docs/OPERATIONS.md): PGlite's own
 * dump of its data directory, a gzipped tarball. PGlite serves one process at a time, so both refuse while a
 * server runs on the directory (the server keeps its pid in `SERVER_PID_FILE` there while it runs).
 */
export const SERVER_PID_FILE = 'allot-server.pid';

/** Marks `dataDir` as served by this process until it exits (the embedded database only). */
export function markServing(dataDir: string): void {
  const file = path.join(dataDir, SERVER_PID_FILE);
  writeFileSync(file, String(process.pid));
  process.once('exit', () => rmSync(file, { force: true }));
}

function runningServer(dataDir: string): number | null {
  const file = path.join(dataDir, SERVER_PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8'));
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

export class BackupError extends Error {}

function refuseWhileServed(dataDir: string) {
  const pid = runningServer(dataDir);
  if (pid !== null) {
    throw new BackupError(
      `A server (process ${pid}) is running on ${dataDir}. Stop it first: the embedded database serves one process at a time.`,
    );
  }
}

/** Writes a backup of the embedded database in `dataDir` to `file`; answers its size in bytes. */
export async function backupPglite(dataDir: string, file: string): Promise<number> {
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new BackupError(`There is no embedded database in ${dataDir} (set DATA_DIR).`);
  }
  refuseWhileServed(dataDir);
  const database = await openPglite({ dataDir });
  try {
    const dump = await database.dumpDataDir?.('gzip');
    if (!dump) throw new BackupError('This database cannot be dumped.');
    const bytes = Buffer.from(await dump.arrayBuffer());
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await writeFile(file, bytes);
    return bytes.length;
  } finally {
    await database.close();
  }
}

/**
 * Restores a backup into `dataDir`. A directory that holds a database is kept beside it, renamed
 * `{dataDir}.before-restore-{time}`, only with `replace`; without it the restore refuses. Answers where the
 * earlier database went, if anywhere.
 */
export async function restorePglite(
  file: string,
  dataDir: string,
  { replace = false }: { replace?: boolean } = {},
): Promise<{ keptAt: string | null }> {
  if (!existsSync(file)) throw new BackupError(`No backup at ${file}.`);
  let keptAt: string | null = null;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    refuseWhileServed(dataDir);
    if (!replace) {
      throw new BackupError(
        `${dataDir} already holds a database. Pass --replace to restore over it (it is kept beside, renamed).`,
      );
    }
    keptAt = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dataDir, keptAt);
  }
  const dump = new Blob([await readFile(file)]);
  const database = await openPglite({ dataDir, loadDataDir: dump });
  try {
    // A dump that is not a database of ours fails here, not at the next start.
    await database.db.execute(sql`select 1 from schema_migrations limit 1`);
  } finally {
    await database.close();
  }
  return { keptAt };
}
