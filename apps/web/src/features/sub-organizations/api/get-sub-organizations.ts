import type { SubOrganizationSortKey } from '@allot/domain/organizations';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { OrganizationListParams, OrganizationPage } from '../../organizations/api/search-organizations';

/** The list's query: an organization list's, with this list's own sort keys (Days left, issue 16). */
export type SubOrganizationListParams = Omit<OrganizationListParams, 'key'> & {
  key?: SubOrganizationSortKey;
};

/** GET /api/organization/{id}/sub-organizations: the direct children, paginated, searched, sorted. */
export function getSubOrganizations(id: string, params: SubOrganizationListParams, signal?: AbortSignal) {
  return api.get<OrganizationPage>(`/organization/${encodeURIComponent(id)}/sub-organizations`, {
    query: { ...params },
    signal,
  });
}

export const subOrganizationsQueryOptions = (id: string, params: SubOrganizationListParams) =>
  queryOptions({
    queryKey: queryKeys.organizations.subOrganizationsPage(id, params),
    queryFn: ({ signal }) => getSubOrganizations(id, params, signal),
    placeholderData: keepPreviousData,
  });

export function useSubOrganizations(id: string, params: SubOrganizationListParams) {
  return useQuery(subOrganizationsQueryOptions(id, params));
}
