import type { CreditUsage } from '@allot/domain/insights';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/organization/{id}/credit-usage?days=: per day received, handed down, consumed; the forecast. */
export function getCreditUsage(organizationId: string, days: number, signal?: AbortSignal) {
  return api.get<CreditUsage>(`/organization/${encodeURIComponent(organizationId)}/credit-usage`, {
    query: { days },
    signal,
  });
}

export const creditUsageQueryOptions = (organizationId: string, days: number) =>
  queryOptions({
    queryKey: queryKeys.insights.creditUsage(organizationId, days),
    queryFn: ({ signal }) => getCreditUsage(organizationId, days, signal),
    // Another period keeps the chart on screen until the new one is there.
    placeholderData: keepPreviousData,
  });

export function useCreditUsage(organizationId: string, days: number) {
  return useQuery(creditUsageQueryOptions(organizationId, days));
}
