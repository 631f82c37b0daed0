import path from 'node:path';
import { loadConfig } from '../src/config';
import { BackupError, restorePglite } from '../src/db/backup';

/** `npm run restore <file> [--replace]`: a backup of `npm run backup` into the embedded database (DATA_DIR). */
const config = loadConfig();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/OPERATIONS.md, "Backups"). npm run restore is for the embedded database.',
  );
  process.exit(2);
}
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('Usage: npm run restore -- <backup file> [--replace]');
  process.exit(2);
}
try {
  const { keptAt } = await restorePglite(path.resolve(file), config.dataDir, {
    replace: args.includes('--replace'),
  });
  console.log(`Restored ${path.resolve(file)} into ${config.dataDir}.`);
  if (keptAt) console.log(`The database that was there is kept at ${keptAt}.`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(error.message);
  process.exit(1);
}
