import type { PublicConfig } from '@allot/domain/public-config';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/public-config: the support address, terms and privacy the operator set (public, no token). */
export function getPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return api.get<PublicConfig>('/public-config', { auth: false, signal });
}

export const publicConfigQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.publicConfig.all(),
    queryFn: ({ signal }) => getPublicConfig(signal),
    // The server reads it at start: it changes only with a restart, so once a page load is enough.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}
