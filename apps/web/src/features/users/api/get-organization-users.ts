import type { Pagination } from '@allot/domain/pagination';
import type { ORGANIZATION_USER_SORT_KEYS, OrganizationUser } from '@allot/domain/users';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type OrganizationUserSortKey = (typeof ORGANIZATION_USER_SORT_KEYS)[number];

export interface OrganizationUserListParams {
  page: number;
  limit: number;
  search: string;
  key: OrganizationUserSortKey;
  order: 'asc' | 'desc';
}

export interface OrganizationUserPage {
  data: OrganizationUser[];
  pagination: Pagination;
}

/** GET /api/organization/{id}/users: the members with role, credits and licence (manage_users). */
export function getOrganizationUsers(
  organizationId: string,
  params: OrganizationUserListParams,
  signal?: AbortSignal,
) {
  return api.get<OrganizationUserPage>(`/organization/${encodeURIComponent(organizationId)}/users`, {
    query: { ...params, withCredits: true },
    signal,
  });
}

export const organizationUsersQueryOptions = (organizationId: string, params: OrganizationUserListParams) =>
  queryOptions({
    queryKey: queryKeys.users.membersPage(organizationId, params),
    queryFn: ({ signal }) => getOrganizationUsers(organizationId, params, signal),
    placeholderData: keepPreviousData,
  });

export function useOrganizationUsers(
  organizationId: string,
  params: OrganizationUserListParams,
  enabled = true,
) {
  return useQuery({ ...organizationUsersQueryOptions(organizationId, params), enabled });
}

/**
 * GET /api/organization/{id}/users?scope=subtree (CONTRACT §6): everyone in it and below, with their organization;
 * `organizationId` narrows it to one organization of the subtree.
 */
export function useSubtreeUsers(
  organizationId: string,
  params: OrganizationUserListParams & { organizationId?: string },
) {
  return useQuery({
    queryKey: queryKeys.users.subtreePage(organizationId, params),
    queryFn: ({ signal }) =>
      api.get<OrganizationUserPage>(`/organization/${encodeURIComponent(organizationId)}/users`, {
        query: { ...params, scope: 'subtree' },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
