import { createHash } from 'node:crypto';
import { is, Param, Placeholder, type SQL, sql } from 'drizzle-orm';
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
  const result = await client.query(preparedStatement(db, query));
  return result.rows as T[];
}

/** `query` as `preparedRows` sends it: a named statement, for a handle on PostgreSQL. */
export function preparedStatement(db: Tx, query: SQL): pg.QueryConfig {
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name: statementName(text), text, values: params as unknown[], types: driverTypes };
}

const statementName = (text: string) => `q_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

/** A compiled shape: its text, its name, and for each parameter the value's name or the constant itself. */
interface CompiledShape {
  name: string;
  text: string;
  params: ({ value: string } | { constant: unknown })[];
}

/**
 * A read whose SQL text depends on its shape (which parts it asks for, which kind of caller) but not on its
 * values: each shape is built and compiled once, its values as named placeholders, and a call only binds its
 * values to that named prepared statement. For the hottest reads, where building the SQL on every call
 * (drizzle's template objects, their text, the statement's name from a hash of it) cost more server CPU than
 * the rest of the call's own code (issue 32, decision 002). `build` is given each value as a parameter (`SQL`)
 * and must only place it in the SQL, never decide anything from it. On PGlite (in process, nothing to save)
 * it is built with the values on every call and run as `rows`.
 */
export function preparedRead<V extends Record<string, unknown>>(
  build: (values: { [K in keyof V]: SQL }, shape: string) => SQL,
) {
  const shapes = new Map<string, CompiledShape>();
  return async <T>(db: Tx, shape: string, values: V): Promise<T[]> => {
    const client = connectionOf(db);
    if (!client) {
      const bound = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, sql`${v}`]));
      return rows<T>(db, build(bound as { [K in keyof V]: SQL }, shape));
    }
    let compiled = shapes.get(shape);
    if (!compiled) {
      const named = Object.fromEntries(Object.keys(values).map((k) => [k, sql`${sql.placeholder(k)}`]));
      const dialect = (db as unknown as { dialect: PgDialect }).dialect;
      const query = dialect.sqlToQuery(build(named as { [K in keyof V]: SQL }, shape));
      compiled = {
        name: statementName(query.sql),
        text: query.sql,
        params: query.params.map((p) => {
          const placeholder = is(p, Placeholder)
            ? p
            : is(p, Param) && is(p.value, Placeholder)
              ? p.value
              : null;
          return placeholder ? { value: placeholder.name } : { constant: p };
        }),
      };
      shapes.set(shape, compiled);
    }
    const params = compiled.params.map((p) => ('value' in p ? values[p.value] : p.constant));
    const result = await client.query({
      name: compiled.name,
      text: compiled.text,
      values: params,
      types: driverTypes,
    });
    return result.rows as T[];
  };
}

/** The pool of a database, or the connection a transaction holds; null on PGlite. */
function connectionOf(db: Tx): pg.Pool | pg.ClientBase | null {
  const pool = (db as { $client?: unknown }).$client;
  if (pool instanceof pg.Pool) return pool;
  const client = (db as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? client : null;
}
