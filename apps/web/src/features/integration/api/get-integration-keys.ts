import type { IntegrationKey } from '@allot/domain/integration';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/organization/{id}/integration-keys: the live keys, newest first, each with its prefix only. */
export function getIntegrationKeys(organizationId: string, signal?: AbortSignal): Promise<IntegrationKey[]> {
  return api.get<IntegrationKey[]>(`/organization/${encodeURIComponent(organizationId)}/integration-keys`, {
    signal,
  });
}

/** `enabled`: the caller holds manage_org_integration there (else the server answers 403). */
export function useIntegrationKeys(organizationId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.integration.keysOf(organizationId),
    queryFn: ({ signal }) => getIntegrationKeys(organizationId, signal),
    enabled,
  });
}
