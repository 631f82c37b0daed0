import type pg from 'pg';
import { concurrencyConflicts } from '../../src/db/transaction';

/**
 * The deadlocks this process's write transactions met so far (db/transaction.ts counts the 40P01 errors it
 * retries): read before and after a workload, the difference is the workload's.
 */
export function deadlocksRetried(): number {
  return concurrencyConflicts.get('40P01') ?? 0;
}

/**
 * PostgreSQL's own count of the deadlocks it detected in database `name` (`pg_stat_database.deadlocks`), read
 * once every connection to it has ended: a backend reports its counts when it ends (before it leaves
 * `pg_stat_activity`), so the connections of the servers and of the test must be closed first. `admin` is
 * connected to another database.
 */
export async function deadlocksCounted(admin: pg.Client, name: string): Promise<number> {
  for (let poll = 0; ; poll++) {
    const open = await admin.query<{ n: string }>(
      "select count(*) as n from pg_stat_activity where datname = $1 and backend_type = 'client backend'",
      [name],
    );
    if (Number(open.rows[0]?.n) === 0) break;
    if (poll >= 200) throw new Error(`connections to ${name} still open: close them before counting`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await admin.query('select pg_stat_clear_snapshot()');
  const stats = await admin.query<{ deadlocks: string }>(
    'select deadlocks from pg_stat_database where datname = $1',
    [name],
  );
  return Number(stats.rows[0]?.deadlocks ?? 0);
}
