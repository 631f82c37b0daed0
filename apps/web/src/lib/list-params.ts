import type { DataTableSortStatus } from 'mantine-datatable';

/*
 * A list's search, sort and page as URL query parameters (docs/decisions/019-lists-in-the-url.md): `?q=gar&sort=name&order=asc&page=3`, defaults left out, so that reload, Back and a shared link
 * keep them. A screen with a second list gives it a prefix: 'invoice' names invoiceQ, invoiceSort,
 * invoiceOrder and invoicePage.
 */

export interface ListParamNames {
  q: string;
  sort: string;
  order: string;
  page: string;
}

export function listParamNames(prefix = ''): ListParamNames {
  const name = (key: string) => (prefix ? `${prefix}${key[0]?.toUpperCase()}${key.slice(1)}` : key);
  return { q: name('q'), sort: name('sort'), order: name('order'), page: name('page') };
}

/** The search text of the URL, trimmed ('' when there is none). */
export function readSearch(params: URLSearchParams, name: string): string {
  return params.get(name)?.trim() ?? '';
}

/** The page of the URL: a whole number from 1, else 1. */
export function readPage(params: URLSearchParams, name: string): number {
  const raw = params.get(name);
  if (raw === null || !/^[1-9][0-9]{0,8}$/.test(raw)) return 1;
  return Number(raw);
}

/** The direction a column is sorted in when the URL does not say: the initial one, ascending for others. */
function defaultDirection<T>(column: string, initial: DataTableSortStatus<T>): 'asc' | 'desc' {
  return column === initial.columnAccessor ? initial.direction : 'asc';
}

/**
 * The sort of the URL. A column that is not one of `sortKeys` (when given) is read as the initial sort; a
 * missing or unknown order as the column's default direction.
 */
export function readSort<T>(
  params: URLSearchParams,
  names: ListParamNames,
  initial: DataTableSortStatus<T>,
  sortKeys?: readonly string[],
): DataTableSortStatus<T> {
  const asked = params.get(names.sort);
  const column =
    asked && (sortKeys ? sortKeys.includes(asked) : /^[A-Za-z][A-Za-z0-9_]*$/.test(asked))
      ? asked
      : String(initial.columnAccessor);
  const order = params.get(names.order);
  const direction = order === 'asc' || order === 'desc' ? order : defaultDirection(column, initial);
  return { ...initial, columnAccessor: column, direction };
}

/** The sort after a click on a column's header: a new column starts ascending; the sorted one turns round. */
export function nextSort<T>(
  current: DataTableSortStatus<T>,
  column: DataTableSortStatus<T>['columnAccessor'],
) {
  const direction: 'asc' | 'desc' =
    column === current.columnAccessor && current.direction === 'asc' ? 'desc' : 'asc';
  return { ...current, columnAccessor: column, direction };
}

/** The URL parameters of a sort, null for what is the default (left out of the URL). */
export function sortParams<T>(
  names: ListParamNames,
  status: DataTableSortStatus<T>,
  initial: DataTableSortStatus<T>,
): Record<string, string | null> {
  const column = String(status.columnAccessor);
  return {
    [names.sort]: column === initial.columnAccessor ? null : column,
    [names.order]: status.direction === defaultDirection(column, initial) ? null : status.direction,
  };
}

/** The URL parameter of a page: left out for page 1. */
export function pageParam(name: string, page: number): Record<string, string | null> {
  return { [name]: page > 1 ? String(page) : null };
}

/** `params` with `changes` applied: a value sets its parameter, null (or '') removes it. Others are kept. */
export function withParams(params: URLSearchParams, changes: Record<string, string | null>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(name);
    else next.set(name, value);
  }
  return next;
}
