import type { CreditAlerts } from '@allot/domain/insights';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The answer of GET/PUT /credit-alerts: the thresholds, and the figures the server adds to explain them (the
 * shared pool now, the pool right after its last top-up, each threshold's level in credits and whether it
 * sent its mail since): read when present, never required.
 */
export type CreditAlertsAnswer = CreditAlerts & {
  sharedCredits?: number;
  referenceBalance?: number | null;
  levels?: { kind: string; value: number; level: number; fired: boolean }[];
};

const path = (organizationId: string) => `/organization/${encodeURIComponent(organizationId)}/credit-alerts`;

/** GET /api/organization/{id}/credit-alerts: the low-balance thresholds (empty: off). */
export function getCreditAlerts(organizationId: string, signal?: AbortSignal) {
  return api.get<CreditAlertsAnswer>(path(organizationId), { signal });
}

export const creditAlertsQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: queryKeys.insights.creditAlerts(organizationId),
    queryFn: ({ signal }) => getCreditAlerts(organizationId, signal),
  });

export function useCreditAlerts(organizationId: string) {
  return useQuery(creditAlertsQueryOptions(organizationId));
}

/** PUT /api/organization/{id}/credit-alerts: replaces the thresholds (at most 3). */
export function updateCreditAlerts(input: { organizationId: string } & CreditAlerts) {
  return apiRequest<CreditAlertsAnswer>(path(input.organizationId), {
    method: 'PUT',
    body: { thresholds: input.thresholds },
  });
}

export function useUpdateCreditAlerts() {
  return useMutation({
    mutationFn: updateCreditAlerts,
    onSuccess: (_answer, input) => invalidate([queryKeys.insights.creditAlerts(input.organizationId)]),
  });
}
