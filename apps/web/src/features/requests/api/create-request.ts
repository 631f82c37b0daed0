import type { CreateRequest, UpTreeRequest } from '@allot/domain/requests';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateRequest } from './request-views';

export interface CreateRequestInput {
  organizationId: string;
  input: CreateRequest;
  /** One per dialog's content (lib/use-idempotency-key.ts): a double click asks once. */
  idempotencyKey: string;
}

/**
 * POST /api/organization/{id}/requests (CONTRACT §11): asks the organization directly above; `429` past
 * REQUESTS_PER_DAY a day, `422` when a rule refuses it (no organization above).
 */
export function createRequest({ organizationId, input, idempotencyKey }: CreateRequestInput) {
  return api.post<UpTreeRequest>(`/organization/${encodeURIComponent(organizationId)}/requests`, input, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useCreateRequest() {
  return useMutation({ mutationFn: createRequest, onSuccess: (request) => invalidateRequest(request) });
}
