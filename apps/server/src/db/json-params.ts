import { type SQL, sql } from 'drizzle-orm';

/**
 * Many values as one parameter: a JSON document, whatever the count (a 10,000-row import is one
 * statement, and the statement's text does not change with the count).
 */
export function jsonParam(value: unknown): SQL {
  return sql`${JSON.stringify(value)}::json`;
}

/** `(select …)` of these ids, for `column in ${uuidsIn(ids)}`. */
export function uuidsIn(ids: readonly string[]): SQL {
  return sql`(select value::uuid from json_array_elements_text(${jsonParam(ids)}))`;
}

/**
 * `any(…)` of these ids, for `column = ${uuidsAny(ids)}`: planned as index probes of `column` whatever the
 * table's size, where `in ${uuidsIn(ids)}` may be planned as a hash join over the whole table (PostgreSQL
 * guesses a JSON array holds 100 values, an array 10). For the hot paths' few ids.
 */
export function uuidsAny(ids: readonly string[]): SQL {
  return sql`any(array${uuidsIn(ids)})`;
}
