import type { CreatedIntegrationKey, CreateIntegrationKeyRequest } from '@allot/domain/integration';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface CreateIntegrationKeyInput extends CreateIntegrationKeyRequest {
  organizationId: string;
}

/**
 * POST /api/organization/{id}/integration-keys: a new key; the answer holds the key itself, this once
 * (the server keeps its hash). `422` beyond the live keys an organization may have.
 */
export function createIntegrationKey({
  organizationId,
  ...body
}: CreateIntegrationKeyInput): Promise<CreatedIntegrationKey> {
  return api.post<CreatedIntegrationKey>(
    `/organization/${encodeURIComponent(organizationId)}/integration-keys`,
    body,
  );
}

/** One key more in the organization's list; nothing else shows keys. */
function afterCreate(_answer: CreatedIntegrationKey, input: CreateIntegrationKeyInput): Promise<void> {
  return invalidate([queryKeys.integration.keysOf(input.organizationId)]);
}

export function useCreateIntegrationKey() {
  return useMutation({ mutationFn: createIntegrationKey, onSuccess: afterCreate });
}
