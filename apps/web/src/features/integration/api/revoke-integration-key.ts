import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface RevokeIntegrationKeyInput {
  organizationId: string;
  keyId: string;
}

/**
 * DELETE /api/organization/{id}/integration-keys/{keyId}: the key is refused from the next request on, on
 * every server process. `404` for a key already revoked.
 */
export function revokeIntegrationKey({
  organizationId,
  keyId,
}: RevokeIntegrationKeyInput): Promise<{ success: boolean }> {
  return api.delete<{ success: boolean }>(
    `/organization/${encodeURIComponent(organizationId)}/integration-keys/${encodeURIComponent(keyId)}`,
  );
}

/** One key less in the organization's list (also after a 404: someone else revoked it meanwhile). */
function afterRevoke(input: RevokeIntegrationKeyInput): Promise<void> {
  return invalidate([queryKeys.integration.keysOf(input.organizationId)]);
}

export function useRevokeIntegrationKey() {
  return useMutation({
    mutationFn: revokeIntegrationKey,
    onSettled: (_answer, _error, input) => afterRevoke(input),
  });
}
