import { Loader, Select } from '@mantine/core';

interface TargetSelectProps<T extends { id: string }> {
  label: string;
  description?: string;
  placeholder: string;
  /** Shown when the search finds nothing. */
  nothingFound: string;
  candidates: T[];
  labelOf: (item: T) => string;
  value: T | null;
  onChange: (item: T | null) => void;
  search: string;
  onSearchChange: (search: string) => void;
  isFetching: boolean;
  error?: string;
}

/** Where a transfer goes: a required, searchable select over the candidates the server found. */
export function TargetSelect<T extends { id: string }>({
  label,
  description,
  placeholder,
  nothingFound,
  candidates,
  labelOf,
  value,
  onChange,
  search,
  onSearchChange,
  isFetching,
  error,
}: TargetSelectProps<T>) {
  return (
    <Select
      label={label}
      description={description}
      placeholder={placeholder}
      required
      searchable
      data={candidates.map((item) => ({ value: item.id, label: labelOf(item) }))}
      value={value?.id ?? null}
      searchValue={search}
      onSearchChange={onSearchChange}
      onChange={(id) => onChange(candidates.find((item) => item.id === id) ?? null)}
      filter={({ options }) => options}
      nothingFoundMessage={isFetching ? 'Searching…' : nothingFound}
      rightSection={isFetching ? <Loader size={14} /> : undefined}
      error={error}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={240}
    />
  );
}
