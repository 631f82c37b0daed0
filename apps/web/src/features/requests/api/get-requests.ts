import type { RequestPage } from '@allot/domain/requests';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys, type RequestListQuery } from '../../../lib/query-keys';

/**
 * GET /api/organization/{id}/requests (CONTRACT §11): `incoming`, the requests of the organizations directly
 * below; `outgoing`, the organization's own; newest first, paginated; an empty status is every status.
 */
export function getRequests(organizationId: string, query: RequestListQuery, signal?: AbortSignal) {
  return api.get<RequestPage>(`/organization/${encodeURIComponent(organizationId)}/requests`, {
    query: {
      direction: query.direction,
      status: query.status || undefined,
      page: query.page,
      limit: query.limit,
    },
    signal,
  });
}

export function useRequests(organizationId: string, query: RequestListQuery, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: queryKeys.requests.page(organizationId, query),
    queryFn: ({ signal }) => getRequests(organizationId, query, signal),
    placeholderData: keepPreviousData,
  });
}
