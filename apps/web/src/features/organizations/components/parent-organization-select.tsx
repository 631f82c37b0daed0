import { Loader, Select } from '@mantine/core';
import { useMemo, useState } from 'react';
import { SEARCH_HINT } from '../../../lib/search-hints';
import { useSelectSearch } from '../../../lib/use-select-search';
import { useSearchOrganizations } from '../api/search-organizations';

interface ParentOrganizationSelectProps {
  value: string | null | undefined;
  onChange: (value: string | null) => void;
  onBlur?: () => void;
  required: boolean;
  error?: string;
  description?: string;
}

/** A searchable choice among the organizations the caller can see (GET /api/organization/search). */
export function ParentOrganizationSelect({
  value,
  onChange,
  onBlur,
  required,
  error,
  description,
}: ParentOrganizationSelectProps) {
  const [selected, setSelected] = useState<{ value: string; label: string } | null>(null);
  const { search, setSearch, query } = useSelectSearch(selected, (o) => o.label);
  const { data, isFetching, isError, error: loadError } = useSearchOrganizations(query);

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
