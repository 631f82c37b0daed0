import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { seedScale } from './seed-scale';

/** `npm run seed:scale`: ~100,000 organizations and SCALE_USERS (default 1,000,000) teachers. */
const config = loadConfig();
const users = Number(process.env.SCALE_USERS ?? 1_000_000);
const database = await openDatabase(config);
try {
  await migrate(database);
  const started = Date.now();
  console.log(`Seeding ~100,000 organizations and ${users.toLocaleString('en-US')} teachers…`);
  const created = await seedScale(database.db, { users, log: (line) => console.log(line) });
  console.log(
    created
      ? `Done in ${((Date.now() - started) / 1000).toFixed(0)} s.`
      : 'Scale data is already there; nothing changed.',
  );
} finally {
  await database.close();
}
