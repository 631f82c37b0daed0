import type { LicenseUsage } from '@allot/domain/insights';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/organization/{id}/license-usage?days=: seats used per licence and day, and the idle seats. */
export function getLicenseUsage(organizationId: string, days: number, signal?: AbortSignal) {
  return api.get<LicenseUsage>(`/organization/${encodeURIComponent(organizationId)}/license-usage`, {
    query: { days },
    signal,
  });
}

export const licenseUsageQueryOptions = (organizationId: string, days: number) =>
  queryOptions({
    queryKey: queryKeys.insights.licenseUsage(organizationId, days),
    queryFn: ({ signal }) => getLicenseUsage(organizationId, days, signal),
  });

export function useLicenseUsage(organizationId: string, days: number) {
  return useQuery(licenseUsageQueryOptions(organizationId, days));
}
