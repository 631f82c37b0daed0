import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { OrganizationListParams, OrganizationPage } from '../../organizations/api/search-organizations';

/** GET /api/organization/{id}/sub-organizations: the direct children, paginated, searched, sorted. */
export function getSubOrganizations(id: string, params: OrganizationListParams, signal?: AbortSignal) {
  return api.get<OrganizationPage>(`/organization/${encodeURIComponent(id)}/sub-organizations`, {
    query: { ...params },
    signal,
  });
}

export const subOrganizationsQueryOptions = (id: string, params: OrganizationListParams) =>
  queryOptions({
    queryKey: queryKeys.organizations.subOrganizationsPage(id, params),
    queryFn: ({ signal }) => getSubOrganizations(id, params, signal),
    placeholderData: keepPreviousData,
  });

export function useSubOrganizations(id: string, params: OrganizationListParams) {
  return useQuery(subOrganizationsQueryOptions(id, params));
}
