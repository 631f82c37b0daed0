import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useSubOrganizations } from '../../sub-organizations/api/get-sub-organizations';
import type { OrganizationParty } from '../forms/parties';

interface OrganizationTargetSelectProps {
  /** The organization whose sub-organizations are offered; it is offered first itself. */
  parent: OrganizationParty;
  /** The organization the credits leave: not offered. */
  excludeId: string;
  value: OrganizationParty | null;
  onChange: (organization: OrganizationParty | null) => void;
  description?: string;
  error?: string;
}

const SEARCH_LIMIT = 20;

/** Where a transfer goes: the parent organization or another of its sub-organizations (searchable). */
export function OrganizationTargetSelect({
  parent,
  excludeId,
  value,
  onChange,
  description,
  error,
}: OrganizationTargetSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  // Once chosen, the input shows the chosen name: list everything again rather than only that name.
  const term = value && debounced === labelOf(value, parent) ? '' : debounced.trim();
  const {
    data,
    isFetching,
    isError,
    error: loadError,
  } = useSubOrganizations(parent.id, {
    page: 1,
    limit: SEARCH_LIMIT,
    search: term,
    key: 'name',
    order: 'asc',
  });

  const candidates = useMemo(() => {
    const found: OrganizationParty[] = (data?.data ?? []).filter((o) => o.id !== excludeId);
    const parentMatches = term === '' || parent.name.toLowerCase().includes(term.toLowerCase());
    const all = parentMatches ? [parent, ...found] : found;
    if (value && !all.some((o) => o.id === value.id)) all.unshift(value);
    return all;
  }, [data, excludeId, parent, term, value]);

  return (
    <Select
      label="To organization"
      description={description}
      placeholder="Search for the organization"
      required
      searchable
      data={candidates.map((o) => ({ value: o.id, label: labelOf(o, parent) }))}
      value={value?.id ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id) => onChange(candidates.find((o) => o.id === id) ?? null)}
      filter={({ options }) => options}
      nothingFoundMessage={isFetching ? 'Searching…' : 'No organizations found'}
      rightSection={isFetching ? <Loader size={14} /> : undefined}
      error={error ?? (isError ? loadError.message : undefined)}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={240}
    />
  );
}

function labelOf(organization: OrganizationParty, parent: OrganizationParty): string {
  return organization.id === parent.id ? `${organization.name} (this organization)` : organization.name;
}
