import type { IntegrationSettings, UpdateIntegrationSettingsRequest } from '@allot/domain/integration';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UpdateIntegrationSettingsInput extends UpdateIntegrationSettingsRequest {
  organizationId: string;
}

/** POST /api/organization/{id}/integration-settings: sets the daily limit (null lifts it); answers the settings. */
export function updateIntegrationSettings({
  organizationId,
  ...body
}: UpdateIntegrationSettingsInput): Promise<IntegrationSettings> {
  return api.post<IntegrationSettings>(
    `/organization/${encodeURIComponent(organizationId)}/integration-settings`,
    body,
  );
}

/** The answer is the settings as they now are: kept as they are, nothing to fetch again. */
function afterUpdate(saved: IntegrationSettings, input: UpdateIntegrationSettingsInput): void {
  queryClient.setQueryData(queryKeys.integration.settingsOf(input.organizationId), saved);
}

export function useUpdateIntegrationSettings() {
  return useMutation({ mutationFn: updateIntegrationSettings, onSuccess: afterUpdate });
}
