import type { Pagination } from '@allot/domain/pagination';
import { formatCount } from './format';

/** What a list's footer needs of the server's pagination (CONTRACT §1). */
export type ListTotals = Pick<Pagination, 'page' | 'total' | 'totalExact' | 'totalPages' | 'hasNext'>;

/**
 * The total of a list as the person reads it. Exact: "1,234". Capped (a search with more than 1,000
 * matches): "1,000+". Past the cap the rows shown say more than the cap does: on the page of rows
 * 1,001–1,020 with more after it, "1,020+"; on the last page the count is known again ("1,047").
 *
 * `shownUpTo` is the position of the last row on screen (0 when none).
 */
export function formatTotal(
  totals: Pick<ListTotals, 'total' | 'totalExact' | 'hasNext'>,
  shownUpTo = 0,
): string {
  if (totals.totalExact) return formatCount(totals.total);
  if (shownUpTo > totals.total && !totals.hasNext) return formatCount(shownUpTo);
  return `${formatCount(Math.max(totals.total, shownUpTo))}+`;
}

/** "1–20 of 1,234", "1–20 of 1,000+": the footer of a paged list. */
export function rangeText(
  from: number,
  to: number,
  totals: Pick<ListTotals, 'total' | 'totalExact' | 'hasNext'>,
) {
  return `${formatCount(from)}–${formatCount(to)} of ${formatTotal(totals, to)}`;
}

/**
 * The pages a pager offers. Exact totals: the server's `totalPages`. A capped total counts 50 pages at 20
 * a page, but the list goes on: while the server says the page after the one it answered has rows, that
 * page is offered too, so "next" stays enabled past the cap, one page at a time.
 */
export function knownPages(
  totals: Pick<ListTotals, 'page' | 'totalExact' | 'totalPages' | 'hasNext'>,
): number {
  if (totals.totalExact) return Math.max(1, totals.totalPages);
  return Math.max(1, totals.totalPages, totals.hasNext ? totals.page + 1 : totals.page);
}
