import type { IntegrationSettings } from '@allot/domain/integration';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/organization/{id}/integration-settings: the daily limit (null: none) and today's consumption. */
export function getIntegrationSettings(
  organizationId: string,
  signal?: AbortSignal,
): Promise<IntegrationSettings> {
  return api.get<IntegrationSettings>(
    `/organization/${encodeURIComponent(organizationId)}/integration-settings`,
    { signal },
  );
}

/** `enabled`: the caller holds manage_org_integration there. */
export function useIntegrationSettings(organizationId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.integration.settingsOf(organizationId),
    queryFn: ({ signal }) => getIntegrationSettings(organizationId, signal),
    enabled,
    // Today's consumption moves with the classroom product's calls: asked again each time the screen opens.
    staleTime: 0,
  });
}
