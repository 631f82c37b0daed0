import type { CreditLogPage } from '@allot/domain/credits';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Moves shown per page; "Load more" asks for the next as many. */
export const CREDIT_LOG_PAGE_SIZE = 20;

/** GET /api/organization/{id}/credit-log: newest first, one page after the cursor (view_audit_logs). */
export function getCreditLog(organizationId: string, pageToken: string | undefined, signal?: AbortSignal) {
  return api.get<CreditLogPage>(`/organization/${encodeURIComponent(organizationId)}/credit-log`, {
    query: { limit: CREDIT_LOG_PAGE_SIZE, pageToken },
    signal,
  });
}

export const creditLogQueryOptions = (organizationId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.creditLog.of(organizationId),
    queryFn: ({ pageParam, signal }) => getCreditLog(organizationId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) =>
      last.pagination.hasNext ? (last.pagination.nextPageToken ?? undefined) : undefined,
  });

export function useCreditLog(organizationId: string, enabled = true) {
  return useInfiniteQuery({ ...creditLogQueryOptions(organizationId), enabled });
}
