import type { SQL } from 'drizzle-orm';
import type { Tx } from './client';

/** Runs a raw SQL query and returns its rows (both drivers answer `{rows}`). */
export async function rows<T>(db: Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
