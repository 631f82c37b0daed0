import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useOrganizationUsers } from '../../users/api/get-organization-users';
import type { UserParty } from '../forms/parties';

interface UserTargetSelectProps {
  organizationId: string;
  /** The person the credits leave: not offered. */
  excludeId: string;
  value: UserParty | null;
  onChange: (user: UserParty | null) => void;
  error?: string;
}

const SEARCH_LIMIT = 20;
const labelOf = (user: UserParty) => `${user.name} (${user.email})`;

/** Who receives a transfer: a member of the organization, searched by name or email. */
export function UserTargetSelect({
  organizationId,
  excludeId,
  value,
  onChange,
  error,
}: UserTargetSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const term = value && debounced === labelOf(value) ? '' : debounced.trim();
  const {
    data,
    isFetching,
    isError,
    error: loadError,
  } = useOrganizationUsers(organizationId, {
    page: 1,
    limit: SEARCH_LIMIT,
    search: term,
    key: 'name',
    order: 'asc',
  });

  const candidates = useMemo(() => {
    // Only members who joined hold credits: an invitation still pending is left out.
    const found: UserParty[] = (data?.data ?? []).filter((u) => u.id !== excludeId && u.status !== 'pending');
    if (value && !found.some((u) => u.id === value.id)) found.unshift(value);
    return found;
  }, [data, excludeId, value]);

  return (
    <Select
      label="To user"
      placeholder="Search by name or email"
      required
      searchable
      data={candidates.map((u) => ({ value: u.id, label: labelOf(u) }))}
      value={value?.id ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id) => onChange(candidates.find((u) => u.id === id) ?? null)}
      filter={({ options }) => options}
      nothingFoundMessage={isFetching ? 'Searching…' : 'No users found'}
      rightSection={isFetching ? <Loader size={14} /> : undefined}
      error={error ?? (isError ? loadError.message : undefined)}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={240}
    />
  );
}
