import { useMemo } from 'react';
import { SEARCH_HINT } from '../../../lib/search-hints';
import { useSelectSearch } from '../../../lib/use-select-search';
import { useOrganizationUsers } from '../../users/api/get-organization-users';
import type { UserParty } from '../forms/parties';
import { TargetSelect } from './target-select';

interface UserTargetSelectProps {
  organizationId: string;
  /** The person the credits leave: not offered. */
  excludeId: string;
  value: UserParty | null;
  onChange: (user: UserParty | null) => void;
  error?: string;
}

const labelOf = (user: UserParty) => `${user.name} (${user.email})`;

/** Who receives a transfer: a member of the organization, searched by name or email. */
export function UserTargetSelect({
  organizationId,
  excludeId,
  value,
  onChange,
  error,
}: UserTargetSelectProps) {
  const { search, setSearch, query } = useSelectSearch(value, labelOf);
  const { data, isFetching, isError, error: loadError } = useOrganizationUsers(organizationId, query);

  const candidates = useMemo(() => {
    // Only members who joined hold credits: an invitation still pending is left out.
    const found: UserParty[] = (data?.data ?? []).filter((u) => u.id !== excludeId && u.status !== 'pending');
    if (value && !found.some((u) => u.id === value.id)) found.unshift(value);
    return found;
  }, [data, excludeId, value]);

  return (
    <TargetSelect
      label="To user"
      placeholder={SEARCH_HINT.users}
      nothingFound="No users found"
      candidates={candidates}
      labelOf={labelOf}
      value={value}
      onChange={onChange}
      search={search}
      onSearchChange={setSearch}
      isFetching={isFetching}
      error={error ?? (isError ? loadError.message : undefined)}
    />
  );
}
