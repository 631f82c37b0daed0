import type { OrganizationSearchResult, OrganizationSortKey } from '@allot/domain/organizations';
import type { Pagination } from '@allot/domain/pagination';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface OrganizationListParams {
  page: number;
  limit: number;
  search: string;
  key?: OrganizationSortKey;
  order?: 'asc' | 'desc';
}

export interface OrganizationPage {
  /** Each with its `path`: the ancestors the caller may see, highest first. */
  data: OrganizationSearchResult[];
  pagination: Pagination;
}

/** GET /api/organization/search: organizations anywhere in the caller's subtrees (system admin: all). */
export function searchOrganizations(params: OrganizationListParams, signal?: AbortSignal) {
  return api.get<OrganizationPage>('/organization/search', { query: { ...params }, signal });
}

export const searchOrganizationsQueryOptions = (params: OrganizationListParams) =>
  queryOptions({
    queryKey: queryKeys.organizations.search(params),
    queryFn: ({ signal }) => searchOrganizations(params, signal),
    placeholderData: keepPreviousData,
  });

export function useSearchOrganizations(params: OrganizationListParams, enabled = true) {
  return useQuery({ ...searchOrganizationsQueryOptions(params), enabled });
}
