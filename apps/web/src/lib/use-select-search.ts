import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

const SEARCH_LIMIT = 20;

/**
 * The text typed into a searchable select whose options the server finds, and the term to send (debounced,
 * trimmed): once an option is chosen the input shows its label, so everything is listed again rather than
 * only that one. `query`: the first page of a list call, by name.
 */
export function useSelectSearch<T>(value: T | null, labelOf: (item: T) => string) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const term = value && debounced === labelOf(value) ? '' : debounced.trim();
  return {
    search,
    setSearch,
    term,
    query: { page: 1, limit: SEARCH_LIMIT, search: term, key: 'name', order: 'asc' } as const,
  };
}
