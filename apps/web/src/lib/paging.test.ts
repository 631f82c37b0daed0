import { buildPagination, SEARCH_TOTAL_CAP } from '@allot/domain/pagination';
import { describe, expect, test } from 'vitest';
import { formatTotal, knownPages, rangeText } from './paging';

const query = (page: number) => ({ page, limit: 20, search: 'gar', key: 'name', order: 'asc' as const });
/** A page of a list with `total` matches, as the server answers it. */
const exact = (page: number, total: number) => buildPagination(query(page), total);
/** A page of a searched list with more than 1,000 matches: the total is capped. */
const capped = (page: number, hasNext: boolean) => buildPagination(query(page), 4321, { hasNext });

describe('the total of a list', () => {
  test('an exact total reads as it always did', () => {
    expect(formatTotal(exact(1, 0))).toBe('0');
    expect(formatTotal(exact(1, 1234), 20)).toBe('1,234');
    expect(rangeText(1, 20, exact(1, 1234))).toBe('1–20 of 1,234');
    expect(rangeText(981, 1000, exact(50, 1000))).toBe('981–1,000 of 1,000');
  });

  test('a capped total reads "1,000+"', () => {
    const first = capped(1, true);
    expect(first.total).toBe(SEARCH_TOTAL_CAP);
    expect(formatTotal(first)).toBe('1,000+');
    expect(rangeText(1, 20, first)).toBe('1–20 of 1,000+');
    expect(rangeText(981, 1000, capped(50, true))).toBe('981–1,000 of 1,000+');
  });

  test('past the cap the rows shown say more than the cap, and the last page knows the count', () => {
    expect(rangeText(1001, 1020, capped(51, true))).toBe('1,001–1,020 of 1,020+');
    expect(rangeText(1041, 1047, capped(53, false))).toBe('1,041–1,047 of 1,047');
    // A capped page 50 that is the last one still says there were more than 1,000 at the count.
    expect(rangeText(981, 1000, capped(50, false))).toBe('981–1,000 of 1,000+');
  });
});

describe('the pages a pager offers', () => {
  test('exact totals: the server’s pages', () => {
    expect(knownPages(exact(1, 0))).toBe(1);
    expect(knownPages(exact(1, 41))).toBe(3);
    expect(knownPages(exact(3, 41))).toBe(3);
  });

  test('a capped total: 50 pages, and one more while the server says the next page has rows', () => {
    expect(knownPages(capped(1, true))).toBe(50);
    expect(knownPages(capped(49, true))).toBe(50);
    expect(knownPages(capped(50, true))).toBe(51);
    expect(knownPages(capped(51, true))).toBe(52);
    expect(knownPages(capped(53, false))).toBe(53);
    expect(knownPages(capped(50, false))).toBe(50);
  });
});
