import path from 'node:path';
import { loadConfig } from '../src/config';
import { BackupError, backupPglite } from '../src/db/backup';

/** `npm run backup [file]`: the embedded database (DATA_DIR) to a file; PostgreSQL: docs/OPERATIONS.md. */
const config = loadConfig();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/OPERATIONS.md, "Backups"). npm run backup is for the embedded database.',
  );
  process.exit(2);
}
const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
const file = path.resolve(process.argv[2] ?? path.join('backups', `allot-${stamp}.tar.gz`));
try {
  const bytes = await backupPglite(config.dataDir, file);
  console.log(`Backed up ${config.dataDir} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
