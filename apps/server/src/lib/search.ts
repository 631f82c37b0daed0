import { preparedRows } from '../db/prepared-rows';
import { rows } from '../db/rows';

/** A user's search text as an ILIKE pattern that matches it literally, anywhere in the column. */
export function containsPattern(search: string): string {
  return `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * How to run a list query searched by `search`. Without a search, or one the trigram indexes can serve
 * (three characters in a row without a space), one plan fits every text: a prepared statement. A shorter
 * text wants another plan (the trigram index would have to read itself whole; 'a' and 'maple' want
 * different indexes), so it is planned for its own value.
 */
export function rowsForSearch(search: string): typeof rows {
  const trimmed = search.trim();
  return trimmed && !/\S{3}/.test(trimmed) ? rows : preparedRows;
}
