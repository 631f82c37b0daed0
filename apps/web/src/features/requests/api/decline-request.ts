import type { UpTreeRequest } from '@allot/domain/requests';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateRequest, type RequestRef, refetchAfterRefusal } from './request-views';

export interface DeclineInput {
  request: RequestRef;
  reason: string;
}

/** POST /api/request/{id}/decline (CONTRACT §11): with the reason the asker reads; `409` when no longer open. */
export function declineRequest({ request, reason }: DeclineInput) {
  return api.post<UpTreeRequest>(`/request/${encodeURIComponent(request.id)}/decline`, { reason });
}

export function useDeclineRequest() {
  return useMutation({
    mutationFn: declineRequest,
    onSuccess: (_answer, { request }) => invalidateRequest(request),
    onError: (error, { request }) => refetchAfterRefusal(error, request),
  });
}
