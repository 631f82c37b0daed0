import { DEFAULT_PAGE_SIZE } from '@allot/domain/pagination';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import type { PagedTableState } from '../components/selectable-paged-table';
import { listParamNames, pageParam, readPage, readSort, sortParams } from './list-params';
import { useListUrl, useUrlSearch } from './use-list-url';

export interface PagedListOptions<K extends string> {
  /**
   * Prefix of the list's URL parameters, for a second list on one screen: 'invoice' names invoiceQ,
   * invoiceSort, invoiceOrder and invoicePage. Without it: q, sort, order, page.
   */
  prefix?: string;
  /** The sortable columns: a URL naming another column is read as the initial sort. */
  sortKeys?: readonly K[];
}

/**
 * The state of a server-paged list with a search box, sorting and row selection: the query to ask the
 * server, and the props of its table. Search, sort and page live in the URL's query string (lib/list-params.ts,
 * decision 019), so that reload, Back and a shared link keep them: a page or sort change is a new
 * history entry, typing is not one per keystroke. A new search text or sort starts on page 1; a new column
 * starts ascending; a new search clears the selection.
 */
export function usePagedList<T, K extends string>(
  initialSort: DataTableSortStatus<T>,
  { prefix, sortKeys }: PagedListOptions<K> = {},
) {
  const names = listParamNames(prefix);
  const { params, write } = useListUrl();
  const { search, setSearch, inUrl } = useUrlSearch(names.q, [names.page]);
  const page = readPage(params, names.page);
  const sortStatus = readSort(params, names, initialSort, sortKeys);
  const [selected, setSelected] = useState<T[]>([]);

  // Adjusted while rendering, not in an effect.
  const [searched, setSearched] = useState(inUrl);
  if (searched !== inUrl) {
    setSearched(inUrl);
    setSelected([]);
  }

  const table: Omit<PagedTableState<T>, 'records' | 'totals' | 'fetching'> = {
    page,
    pageSize: DEFAULT_PAGE_SIZE,
    onPageChange: (next) => write(pageParam(names.page, next), 'push'),
    sortStatus,
    onSortStatusChange: (status) => {
      write({ ...sortParams(names, status, initialSort), [names.page]: null }, 'push');
    },
    selected,
    onSelectedChange: setSelected,
  };
  return {
    search,
    setSearch,
    /** The search text the server is asked for (trimmed, debounced: the URL's). */
    debounced: inUrl,
    selected,
    setSelected,
    query: {
      page,
      limit: DEFAULT_PAGE_SIZE,
      search: inUrl,
      key: sortStatus.columnAccessor as K,
      order: sortStatus.direction,
    },
    table,
  };
}
