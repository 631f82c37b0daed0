import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { rows } from '../db/rows';

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
}

const REFRESH_MS = 10 * 60_000;
const cache = new Map<WordsTable, { at: number; statistics: WordStatistics | null }>();
const loading = new Set<WordsTable>();

async function load(db: Tx, table: WordsTable): Promise<WordStatistics | null> {
  const [row] = await rows<{ common: string[] | null; shares: number[] | null; bounds: string[] | null }>(
    db,
    sql`select s.most_common_vals::text::text[] as common, s.most_common_freqs as shares,
        s.histogram_bounds::text::text[] as bounds
      from pg_stats s where s.schemaname = current_schema() and s.tablename = ${table} and s.attname = 'word'`,
  );
  if (!row) return null;
  const shares = (row.shares ?? []).map(Number);
  const common = (row.common ?? []).map((word, i) => ({ word, share: shares[i] ?? 0 }));
  return { common, rest: 1 - shares.reduce((sum, share) => sum + share, 0), bounds: row.bounds ?? [] };
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
