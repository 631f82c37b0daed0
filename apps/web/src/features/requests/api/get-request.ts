import type { UpTreeRequest } from '@allot/domain/requests';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * GET /api/request/{id} (issue 33): one request, for the Requests screen a request's mail links to
 * (`?request=`). Whoever manages either side reads it; anyone else gets a 404, as for an id of nothing.
 */
export function useRequest(organizationId: string, requestId: string | null, enabled: boolean) {
  return useQuery({
    enabled: enabled && requestId !== null,
    queryKey: queryKeys.requests.one(organizationId, requestId ?? ''),
    queryFn: ({ signal }) =>
      api.get<UpTreeRequest>(`/request/${encodeURIComponent(requestId ?? '')}`, { signal }),
  });
}
