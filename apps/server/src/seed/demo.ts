import { ROLE_LABEL } from '@allot/domain/roles';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts';
import { seedDemo } from './seed-demo';

const config = loadConfig();
const database = await openDatabase(config);
try {
  await migrate(database);
  const created = await seedDemo(database.db);
  console.log(created ? '\nDemo data loaded.' : '\nDemo data was already there; nothing changed.');
  console.log(`Demo sign-ins (password for all: ${DEMO_PASSWORD}):`);
  for (const a of DEMO_ACCOUNTS) {
    const note = a.role === 'user' ? '  (teacher: no panel access)' : '';
    console.log(`  ${a.email.padEnd(26)} ${ROLE_LABEL[a.role].padEnd(8)} ${a.organization}${note}`);
  }
} finally {
  await database.close();
}
