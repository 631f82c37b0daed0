import { DEFAULT_PAGE_SIZE } from '@allot/domain/pagination';
import { useDebouncedValue } from '@mantine/hooks';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import type { PagedTableState } from '../components/selectable-paged-table';

/**
 * The state of a server-paged list with a search box, sorting and row selection: the query to ask the
 * server, and the props of its table. A new search text or sort starts on page 1; a new search clears
 * the selection.
 */
export function usePagedList<T, K extends string>(initialSort: DataTableSortStatus<T>) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [sortStatus, setSortStatus] = useState(initialSort);
  const [selected, setSelected] = useState<T[]>([]);

  // Adjusted while rendering, not in an effect.
  const [searched, setSearched] = useState(debounced);
  if (searched !== debounced) {
    setSearched(debounced);
    setPage(1);
    setSelected([]);
  }

  const table: Omit<PagedTableState<T>, 'records' | 'totals' | 'fetching'> = {
    page,
    pageSize: DEFAULT_PAGE_SIZE,
    onPageChange: setPage,
    sortStatus,
    onSortStatusChange: (status) => {
      setSortStatus(status);
      setPage(1);
    },
    selected,
    onSelectedChange: setSelected,
  };
  return {
    search,
    setSearch,
    /** The search text the server is asked for (trimmed, debounced). */
    debounced,
    selected,
    setSelected,
    query: {
      page,
      limit: DEFAULT_PAGE_SIZE,
      search: debounced,
      key: sortStatus.columnAccessor as K,
      order: sortStatus.direction,
    },
    table,
  };
}
