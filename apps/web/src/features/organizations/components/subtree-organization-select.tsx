import type { OrganizationSearchResult } from '@allot/domain/organizations';
import { Loader, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { matchesWordStarts, SEARCH_HINT } from '../../../lib/search-hints';
import { useSelectSearch } from '../../../lib/use-select-search';
import { organizationQueryOptions } from '../api/get-organization';
import { useSearchOrganizations } from '../api/search-organizations';

type Option = { value: string; label: string };

interface SubtreeOrganizationSelectProps {
  /** The organization whose log or people are shown: the picker offers it and the organizations below it. */
  organization: { id: string; name: string; subOrganizations?: { id: string; name: string }[] | null };
  /** The organizations the loaded rows name. */
  seen: Option[];
  value: string | null;
  onChange: (value: string | null) => void;
}

/** "Northside Annex (Northside Elementary)": where a found organization sits below the log's organization. */
function labelBelow(found: OrganizationSearchResult, organizationId: string): string {
  const at = found.path.findIndex((p) => p.id === organizationId);
  const between = found.path.slice(at + 1).map((p) => p.name);
  return between.length > 0 ? `${found.name} (${between.join(' › ')})` : found.name;
}

/**
 * An organization filter of a list of the subtree (the audit log, everyone below on Users). Without text it offers the organization, its sub-organizations and
 * those the loaded entries name; typed text also searches the whole subtree (GET /api/organization/search,
 * kept to the organizations below this one), so a school three levels down can be picked by name.
 */
export function SubtreeOrganizationSelect({
  organization,
  seen,
  value,
  onChange,
}: SubtreeOrganizationSelectProps) {
  const [selected, setSelected] = useState<Option | null>(null);
  const { search, setSearch, term, query } = useSelectSearch(selected, (o) => o.label);
  const found = useSearchOrganizations(query, term !== '');
  // A filter from the URL (a reload, a shared link) names an organization that may be in no list yet.
  const known = [organization, ...(organization.subOrganizations ?? [])].some((o) => o.id === value);
  const fromUrl = useQuery({
    ...organizationQueryOptions(value ?? ''),
    enabled: value !== null && !known && selected?.value !== value && !seen.some((o) => o.value === value),
  });

  const local: Option[] = [
    { value: organization.id, label: organization.name },
    ...(organization.subOrganizations ?? []).map((o) => ({ value: o.id, label: o.name })),
    ...seen,
  ].filter((o) => term === '' || matchesWordStarts(o.label, term));
  const below: Option[] =
    term === ''
      ? []
      : (found.data?.data ?? [])
          .filter((o) => o.id === organization.id || o.path.some((p) => p.id === organization.id))
          .map((o) => ({ value: o.id, label: labelBelow(o, organization.id) }));
  const current: Option[] = [
    ...(selected ? [selected] : []),
    ...(fromUrl.data ? [{ value: fromUrl.data.id, label: fromUrl.data.name }] : []),
  ];
  const byValue = new Map<string, Option>();
  for (const option of [...below, ...local, ...current])
    if (!byValue.has(option.value)) byValue.set(option.value, option);
  const options = [...byValue.values()];

  const searching = term !== '' && found.isFetching;
  return (
    <Select
      label="Organization"
      placeholder="All"
      data={options}
      value={value}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(next, option) => {
        setSelected(next ? { value: next, label: option.label } : null);
        onChange(next);
      }}
      filter={({ options: all }) => all}
      clearable
      nothingFoundMessage={searching ? 'Searching…' : `No organization by that name in ${organization.name}`}
      rightSection={searching ? <Loader size={14} /> : undefined}
      aria-description={SEARCH_HINT.organizations}
      w={260}
      comboboxProps={{ width: 340, position: 'bottom-start' }}
      maxDropdownHeight={300}
    />
  );
}
