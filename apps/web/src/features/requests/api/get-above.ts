import type { OrganizationAbove } from '@allot/domain/requests';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * GET /api/organization/{id}/above (decision 017): the organization above, its owners and admins, whether it
 * holds a free seat of each type, and the open requests waiting for an answer here (the menu's count).
 */
export function getAbove(organizationId: string, signal?: AbortSignal): Promise<OrganizationAbove> {
  return api.get<OrganizationAbove>(`/organization/${encodeURIComponent(organizationId)}/above`, { signal });
}

export const aboveQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: queryKeys.requests.above(organizationId),
    queryFn: ({ signal }) => getAbove(organizationId, signal),
  });

/** How often the menu asks again for the open count while a dashboard is open (a request made elsewhere). */
export const OPEN_COUNT_REFRESH_MS = 60_000;

/**
 * `enabled`: the caller manages the organization (the menu's count, the ask button, the seats offer).
 * `poll`: asked again every minute while the tab is shown (the menu: requests arrive from other people).
 */
export function useAbove(organizationId: string, enabled = true, poll = false) {
  return useQuery({
    ...aboveQueryOptions(organizationId),
    enabled,
    refetchInterval: poll ? OPEN_COUNT_REFRESH_MS : false,
  });
}
