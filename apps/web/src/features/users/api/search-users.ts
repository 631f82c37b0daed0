import type { Pagination } from '@allot/domain/pagination';
import type { UserSearchItem } from '@allot/domain/users';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UserSearchParams {
  page: number;
  limit: number;
  search: string;
}

/** GET /api/user/search: users in the caller's subtrees, each with the organizations they belong to. */
export function searchUsers(params: UserSearchParams, signal?: AbortSignal) {
  return api.get<{ data: UserSearchItem[]; pagination: Pagination }>('/user/search', {
    query: { ...params },
    signal,
  });
}

export const searchUsersQueryOptions = (params: UserSearchParams) =>
  queryOptions({
    queryKey: queryKeys.users.search(params),
    queryFn: ({ signal }) => searchUsers(params, signal),
    placeholderData: keepPreviousData,
  });

export function useSearchUsers(params: UserSearchParams, enabled = true) {
  return useQuery({ ...searchUsersQueryOptions(params), enabled });
}
