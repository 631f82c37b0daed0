import { SEARCH_TOTAL_CAP } from '@allot/domain/pagination';
import { type SQL, sql } from 'drizzle-orm';

/*
 * Word-prefix search (CONTRACT §1; decision 002, "Search"). The rule lives in the SQL functions of migration
 * 0014 (`search_fold`, `search_mark_*`, `search_pattern`, `search_query`), so that the stored texts and the
 * searches are folded by the same code. Here: how the queries use them.
 */

/** The scope of "every user" / "every organization" in the search indexes (a system admin's searches). */
export const NIL_SCOPE = '00000000-0000-0000-0000-000000000000';

/** One more than the cap: a search that finds this many has more matches than it counts. */
export const SEARCH_COUNT_LIMIT = SEARCH_TOTAL_CAP + 1;

/** The terms of a search: its whitespace-separated pieces. None: the list is not searched. */
export function searchTerms(search: string): string[] {
  return search.split(/\s+/).filter(Boolean);
}

/** A term that begins with @ . _ - + cannot start a word of a name or an email: the search finds nothing. */
export function findsNothing(terms: readonly string[]): boolean {
  return terms.some((term) => /^[@._+-]/.test(term));
}

/**
 * Every term starts a word of `marked`, a column holding a marked text (`search_text`). `kind`: a name
 * (organizations) or a user's name and email.
 * `planned`: the statement is planned for its values (not a prepared statement). The patterns are then
 * folded into constants while planning, and the planner estimates from the column's statistics how many
 * rows match: it needs that to walk a name index rather than scan and sort (with a pattern it cannot see,
 * it guessed 3 matches of 100,005 where 2,000 matched, and read the whole table: 220 ms instead of 1).
 * In a prepared statement the patterns are computed once per execution instead (sub-selects).
 */
export function matchesTerms(
  marked: SQL,
  terms: readonly string[],
  kind: 'name' | 'user',
  { planned = false }: { planned?: boolean } = {},
): SQL {
  if (terms.length === 0) return sql`true`;
  const pattern = (mark: 'search_mark_name' | 'search_mark_email', term: string) => {
    const computed = sql`search_pattern(${sql.raw(mark)}(${term}))`;
    return planned ? computed : sql`(select ${computed})`;
  };
  return sql.join(
    terms.map((term) =>
      kind === 'name'
        ? sql`${marked} like ${pattern('search_mark_name', term)}`
        : sql`(${marked} like ${pattern('search_mark_name', term)} or ${marked} like ${pattern('search_mark_email', term)})`,
    ),
    sql` and `,
  );
}

/**
 * The one term of a search that the btree of words answers by itself (`*_search_words`, migration 0014):
 * a single term of letters and digits, which lies inside one word, so "a word of the scope starts with
 * it" is the whole rule. The letters are those both JavaScript and PostgreSQL take as letters (Latin
 * scripts), so the two never disagree on where the term ends. Otherwise null: the GIN index and the marked
 * text answer.
 */
export function singleWord(terms: readonly string[]): string | null {
  const [term] = terms;
  if (terms.length !== 1 || term === undefined) return null;
  return isPlainWord(term) ? term : null;
}

function isPlainWord(term: string): boolean {
  return /^[0-9A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F]+$/.test(term);
}

/**
 * The terms of letters and digits of a search of several terms: each has its range in the btree of words,
 * whose entries carry the row's marked text (migration 0037), so that one range checked against every term
 * gives the matches without the GIN index. Which one to read: `byEstimatedRange` (lib/word-frequency.ts).
 */
export function plainWords(terms: readonly string[]): string[] {
  return [...new Set(terms.filter(isPlainWord))];
}

/**
 * `select` (over a words table `table`, alias `w`) of the entries in `scope` whose word starts with `word`
 * and that pass `where`: read from the range index alone.
 */
export function inWordRange(
  table: 'user_search_words' | 'organization_search_words',
  scope: SQL,
  word: string,
  select: SQL,
  where: SQL,
): SQL {
  return sql`${select} from ${sql.raw(table)} w where w.scope_id = ${scope} and ${wordPrefix(word)} and ${where}`;
}
/**
 * The entries of a words table (alias `w`) whose word starts with `term`, one per searched row: the first
 * of the row's words in the prefix range is the one whose previous word sorts before the prefix.
 */
export function wordPrefix(term: string): SQL {
  const prefix = sql`(search_fold(${term}) collate "C")`;
  return sql`w.word >= ${prefix} and w.word < ${prefix} || chr(1114111) and w.prev_word < ${prefix}`;
}

/** The index half of a search in `scope` (a GIN query of its words' prefixes, `search_query`). */
export function searchQuery(scope: string, terms: readonly string[]): SQL {
  return sql`search_query(${scope}::uuid, ${terms.join(' ')})`;
}

/**
 * The pagination facts of a searched list counted exactly (a bounded list): beyond the cap, the total is
 * the cap and whether another page follows comes from the exact count.
 */
export function cappedFromExact(
  total: number,
  query: { page: number; limit: number },
): { hasNext: boolean } | undefined {
  return total > SEARCH_TOTAL_CAP ? { hasNext: query.page * query.limit < total } : undefined;
}
