import { MAX_PAGE_SIZE } from '@allot/domain/pagination';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { SEARCH_HINT } from '../../../lib/search-hints';
import { useSearchOrganizations } from '../api/search-organizations';

interface ParentOrganizationSelectProps {
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  onBlur?: () => void;
  required: boolean;
  error?: string;
  description?: string;
}

const SEARCH_LIMIT = 20;

/** A searchable choice among the organizations the caller can see (GET /api/organization/search). */
export function ParentOrganizationSelect({
  value,
  onChange,
  onBlur,
  required,
  error,
  description,
}: ParentOrganizationSelectProps) {
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<{ value: string; label: string } | null>(null);
  const [debounced] = useDebouncedValue(search, 250);
  // Once chosen, the input shows the chosen name: list everything again rather than only that name.
  const term = selected && debounced === selected.label ? '' : debounced;
  const {
    data,
    isFetching,
    isError,
    error: loadError,
  } = useSearchOrganizations({
    page: 1,
    limit: Math.min(SEARCH_LIMIT, MAX_PAGE_SIZE),
    search: term.trim(),
    key: 'name',
    order: 'asc',
  });

  const options = useMemo(() => {
    const found = (data?.data ?? []).map((o) => ({ value: o.id, label: o.name }));
    if (selected && !found.some((o) => o.value === selected.value)) found.unshift(selected);
    return found;
  }, [data, selected]);

  return (
    <Select
      label="Parent organization"
      placeholder={SEARCH_HINT.organizations}
      description={description}
      required={required}
      searchable
      clearable={!required}
      data={options}
      value={value ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(next, option) => {
        setSelected(next ? { value: next, label: option.label } : null);
        onChange(next);
      }}
      onBlur={onBlur}
      filter={({ options: all }) => all}
      nothingFoundMessage={isFetching ? 'Searching…' : 'No organizations found'}
      rightSection={isFetching ? <Loader size={14} /> : undefined}
      error={error ?? (isError ? loadError.message : undefined)}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={260}
    />
  );
}
