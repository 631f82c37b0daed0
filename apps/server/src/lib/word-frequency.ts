import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { rows } from '../db/rows';
import { singleWord } from './search';

/*
 * Which word of a search of several words has the smaller range in the btree of words (decision 002,
 * "Query shapes"): estimated from the statistics ANALYZE keeps of the `word` column (its most common values
 * and their shares, and a histogram of the rest), read at most every few minutes and kept in memory, so
 * that a search costs no more statements. An estimate only picks which range is read: every term is checked
 * on the entry, so a stale or missing estimate (a fresh database, another database's in tests) costs time,
 * never a wrong answer.
 */

type WordsTable = 'user_search_words' | 'organization_search_words';
interface WordStatistics {
  common: { word: string; share: number }[];
  /** The share of the entries that are not among the common words. */
  rest: number;
  bounds: string[];
  /** The table's entries, as ANALYZE (or autovacuum) last counted them. */
  entries: number;
  /** The share of the entries of each of the most common scopes (a system admin's, the largest subtrees). */
  scopes: Map<string, number>;
  /** The share of one of the other scopes. */
  otherScope: number;
}

const REFRESH_MS = 10 * 60_000;
/**
 * A search of several words with more matches than the cap reads its chosen range whole, and sorts its
 * matches, when the range is estimated at most this long in the caller's scopes (decision 002): 5,000
 * entries took about 1 ms of PostgreSQL where the walk took 4.
 */
export const WHOLE_RANGE_MAX_ENTRIES = 6_000;
const cache = new Map<WordsTable, { at: number; statistics: WordStatistics | null }>();
const loading = new Set<WordsTable>();

async function load(db: Tx, table: WordsTable): Promise<WordStatistics | null> {
  const found = await rows<{
    column: 'word' | 'scope_id';
    common: string[] | null;
    shares: number[] | null;
    bounds: string[] | null;
    distinct: number | string;
    entries: number | string | null;
  }>(
    db,
    sql`select s.attname as column, s.most_common_vals::text::text[] as common, s.most_common_freqs as shares,
        s.histogram_bounds::text::text[] as bounds, s.n_distinct as distinct,
        (select c.reltuples from pg_class c where c.oid = ${table}::regclass) as entries
      from pg_stats s where s.schemaname = current_schema() and s.tablename = ${table}
        and s.attname in ('word', 'scope_id')`,
  );
  const words = found.find((row) => row.column === 'word');
  if (!words) return null;
  const scopes = found.find((row) => row.column === 'scope_id');
  const sharesOf = (row: { common: string[] | null; shares: number[] | null }) => {
    const shares = (row.shares ?? []).map(Number);
    return (row.common ?? []).map((value, i) => ({ value, share: shares[i] ?? 0 }));
  };
  const entries = Math.max(Number(words.entries ?? 0), 0);
  const commonScopes = scopes ? sharesOf(scopes) : [];
  const restOfScopes = 1 - commonScopes.reduce((sum, c) => sum + c.share, 0);
  // ANALYZE's n_distinct: a count, or (negative) a share of the rows.
  const distinct = Number(scopes?.distinct ?? 0);
  const otherScopes = Math.max((distinct < 0 ? -distinct * entries : distinct) - commonScopes.length, 1);
  const common = sharesOf(words).map(({ value, share }) => ({ word: value, share }));
  return {
    common,
    rest: 1 - common.reduce((sum, c) => sum + c.share, 0),
    bounds: words.bounds ?? [],
    entries,
    scopes: new Map(commonScopes.map(({ value, share }) => [value, share])),
    otherScope: restOfScopes / otherScopes,
  };
}

/** Loads the table's statistics now and keeps them (a server loads them in the background on first use). */
export async function refreshWordStatistics(db: Tx, table: WordsTable): Promise<void> {
  cache.set(table, { at: Date.now(), statistics: await load(db, table) });
}

/** What `search_fold` does to a term, near enough for an estimate (NFD, no combining marks, lower case). */
function folded(term: string): string {
  return term
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The estimated share of the table's entries whose word starts with `term`; 0 without statistics. */
function share(statistics: WordStatistics | null, term: string): number {
  if (!statistics) return 0;
  const prefix = folded(term);
  const common = statistics.common.reduce((sum, c) => sum + (c.word.startsWith(prefix) ? c.share : 0), 0);
  const buckets = Math.max(statistics.bounds.length - 1, 1);
  const inHistogram = statistics.bounds.filter((bound) => bound.startsWith(prefix)).length;
  return common + (statistics.rest * inHistogram) / buckets;
}

/**
 * `words` ordered from the smallest estimated range to the largest (ties: the longer word first). Loads or
 * refreshes the statistics in the background: the search in hand uses what is there.
 */
export function byEstimatedRange(db: Tx, table: WordsTable, words: readonly string[]): string[] {
  const cached = cache.get(table);
  if ((!cached || Date.now() - cached.at > REFRESH_MS) && !loading.has(table)) {
    loading.add(table);
    load(db, table)
      .then((statistics) => cache.set(table, { at: Date.now(), statistics }))
      .catch(() => cache.set(table, { at: Date.now(), statistics: null }))
      .finally(() => loading.delete(table));
  }
  const statistics = cached?.statistics ?? null;
  return [...words]
    .map((word) => ({ word, share: share(statistics, word) }))
    .sort((a, b) => a.share - b.share || b.word.length - a.word.length)
    .map(({ word }) => word);
}

/**
 * About how many entries of these scopes start with `word` (the word's share of the table times the scopes'
 * entries, as the planner would guess them); unknown (infinite) until statistics are loaded, which
 * `byEstimatedRange` starts.
 */
export function estimatedRangeEntries(table: WordsTable, scopes: readonly string[], word: string): number {
  const statistics = cache.get(table)?.statistics ?? null;
  if (!statistics) return Number.POSITIVE_INFINITY;
  const scopeShare = scopes.reduce(
    (sum, scope) => sum + (statistics.scopes.get(scope) ?? statistics.otherScope),
    0,
  );
  return share(statistics, word) * statistics.entries * scopeShare;
}

/**
 * Whether a search of `terms` past the cap reads `rangeWord`'s range in these scopes whole and sorts its matches
 * (decision 002): a search of several words (a single word's range is walked) whose range is estimated at most
 * `maxEntries` long. Walking the name (or email) index instead, their matches can be far apart.
 */
export function readsRangeWhole(
  table: WordsTable,
  scopes: readonly string[],
  terms: readonly string[],
  rangeWord: string | undefined,
  maxEntries: number,
): boolean {
  return (
    rangeWord !== undefined &&
    singleWord(terms) === null &&
    estimatedRangeEntries(table, scopes, rangeWord) <= maxEntries
  );
}
