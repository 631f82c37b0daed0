import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Tx } from './client';
import { rows } from './rows';

const RAW_TYPES = new Set<number>([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
]);
/** Dates and intervals as the text PostgreSQL sends, as drizzle's own queries return them. */
const driverTypes = {
  getTypeParser: ((id: number, format?: 'text' | 'binary') =>
    RAW_TYPES.has(id)
      ? (value: string) => value
      : pg.types.getTypeParser(id, format)) as typeof pg.types.getTypeParser,
};

/**
 * `rows`, as a named prepared statement on PostgreSQL: each connection plans the statement once and then
 * reuses the plan, where an unnamed statement is planned again on every call (for the list queries that
 * costs PostgreSQL more than running them; for the classroom product's consumption, a third of its time:
 * decision 016). Only for SQL whose text comes from a bounded set of shapes: values must be parameters,
 * never literals (each distinct text stays prepared on every connection). On the pool, or on the connection
 * of a transaction; on PGlite (in process, nothing to save) it is plain `rows`.
 */
export async function preparedRows<T>(db: Tx, query: SQL): Promise<T[]> {
  const client = connectionOf(db);
  if (!client) return rows<T>(db, query);
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  const result = await client.query({ name, text, values: params as unknown[], types: driverTypes });
  return result.rows as T[];
}

/** The pool of a database, or the connection a transaction holds; null on PGlite. */
function connectionOf(db: Tx): pg.Pool | pg.ClientBase | null {
  const pool = (db as { $client?: unknown }).$client;
  if (pool instanceof pg.Pool) return pool;
  const client = (db as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? client : null;
}
