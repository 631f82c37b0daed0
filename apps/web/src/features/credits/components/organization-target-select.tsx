import { useMemo } from 'react';
import { matchesWordStarts, SEARCH_HINT } from '../../../lib/search-hints';
import { useSelectSearch } from '../../../lib/use-select-search';
import { useSubOrganizations } from '../../sub-organizations/api/get-sub-organizations';
import type { OrganizationParty } from '../forms/parties';
import { TargetSelect } from './target-select';

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

/** Where a transfer goes: the parent organization or another of its sub-organizations (searchable). */
export function OrganizationTargetSelect({
  parent,
  excludeId,
  value,
  onChange,
  description,
  error,
}: OrganizationTargetSelectProps) {
  const labelOf = (organization: OrganizationParty) =>
    organization.id === parent.id ? `${organization.name} (this organization)` : organization.name;
  const { search, setSearch, term, query } = useSelectSearch(value, labelOf);
  const { data, isFetching, isError, error: loadError } = useSubOrganizations(parent.id, query);

  const candidates = useMemo(() => {
    const found: OrganizationParty[] = (data?.data ?? []).filter((o) => o.id !== excludeId);
    // The server's rule for the parent it does not list: the start of a word of its name.
    const parentMatches = term === '' || matchesWordStarts(parent.name, term);
    const all = parentMatches ? [parent, ...found] : found;
    if (value && !all.some((o) => o.id === value.id)) all.unshift(value);
    return all;
  }, [data, excludeId, parent, term, value]);

  return (
    <TargetSelect
      label="To organization"
      description={description}
      placeholder={SEARCH_HINT.organizations}
      nothingFound="No organizations found"
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
