import { preparedRows } from '../db/prepared-rows';
import { rows } from '../db/rows';

/** A user's search text as an ILIKE pattern that matches it literally, anywhere in the column. */
export function containsPattern(search: string): string {
  return `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * How to run a list query searched by `search`. Without a search, one plan fits every call: a prepared
 * statement, planned once per connection. With a search, the best plan depends on the text ('a', 'maple'
 * and 'garcia' want different ones), so it is planned for its own value every time: as a named statement,
 * PostgreSQL switches to one generic plan after five calls, and for a common word that plan took 60 s
 * instead of 0.4 s (docs/decisions/002). `bounded`: a list whose every plan reads little (one parent's
 * children) stays prepared.
 */
export function rowsForSearch(search: string, bounded = false): typeof rows {
  return search.trim() && !bounded ? rows : preparedRows;
}
