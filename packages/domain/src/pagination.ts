import { z } from 'zod';
import { MSG } from './messages';
import { text } from './text';

export const DEFAULT_PAGE_SIZE = 20;
export const PICKER_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 100;

/** A whole-number query parameter within bounds, `fallback` when absent, with the spec's texts. */
export const intParam = (min: number, max: number, fallback: number) =>
  text(MSG.invalidNumber)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^\d+$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: MSG.invalidNumber });
        return z.NEVER;
      }
      const n = Number(v);
      if (n < min) ctx.addIssue({ code: 'custom', message: MSG.min(min) });
      if (n > max) ctx.addIssue({ code: 'custom', message: MSG.max(max) });
      return n;
    })
    // A query string is text; the document says what it must hold, so a generated client sends numbers.
    .meta({ type: 'integer', minimum: min, maximum: max, default: fallback });

/** Query of a paginated list (CONTRACT §1): `key` is one of the list's sortable columns. */
export function paginationQuerySchema<const K extends readonly [string, ...string[]]>(keys: K) {
  return z.object({
    page: intParam(1, 1_000_000, 1),
    limit: intParam(1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    search: text().max(200, 'Search at most 200 characters.').optional().default(''),
    key: z
      .enum(keys)
      .optional()
      .default(keys[0] as K[number]),
    order: z.enum(['asc', 'desc']).optional().default('asc'),
  });
}

export type PaginationQuery<K extends string = string> = {
  page: number;
  limit: number;
  search: string;
  key: K;
  order: 'asc' | 'desc';
};

export const paginationSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    search: z.string(),
    total: z.number().int(),
    /** False when `total` is the cap of a searched list (CONTRACT §1): there are more matches than that. */
    totalExact: z.boolean(),
    totalPages: z.number().int(),
    hasNext: z.boolean(),
    hasPrev: z.boolean(),
    key: z.string(),
    order: z.enum(['asc', 'desc']),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.infer<typeof paginationSchema>;

/** A page of a list; `id` names it in the API document (one name per list, e.g. 'OrganizationPage'). */
export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z.object({ data: z.array(item), pagination: paginationSchema }).meta({ id });
}

/**
 * A searched list counts its matches up to this many (CONTRACT §1): beyond, `total` is the cap and
 * `totalExact` false, and the web app shows "1,000+".
 */
export const SEARCH_TOTAL_CAP = 1000;

/**
 * The pagination of an answer. `total` is exact unless `capped` is given: then it is a searched list that
 * found more than `SEARCH_TOTAL_CAP` matches, `total` is the cap, and `hasNext` says whether the page after
 * this one has matches (known to the query, since the cap does not bound the pages).
 */
export function buildPagination(
  query: PaginationQuery,
  total: number,
  capped?: { hasNext: boolean },
): Pagination {
  const shownTotal = capped ? SEARCH_TOTAL_CAP : total;
  const totalPages = Math.max(1, Math.ceil(shownTotal / query.limit));
  return {
    page: query.page,
    limit: query.limit,
    search: query.search,
    total: shownTotal,
    totalExact: !capped,
    totalPages,
    hasNext: capped ? capped.hasNext : query.page < totalPages,
    hasPrev: query.page > 1,
    key: query.key,
    order: query.order,
  };
}
