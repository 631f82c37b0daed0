import type { UpTreeRequest } from '@allot/domain/requests';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateRequest, type RequestRef, refetchAfterRefusal } from './request-views';

/** POST /api/request/{id}/cancel (CONTRACT §11): by the asking side, while the request is open. */
export function cancelRequest(request: RequestRef) {
  return api.post<UpTreeRequest>(`/request/${encodeURIComponent(request.id)}/cancel`);
}

export function useCancelRequest() {
  return useMutation({
    mutationFn: cancelRequest,
    onSuccess: (_answer, request) => invalidateRequest(request),
    onError: (error, request) => refetchAfterRefusal(error, request),
  });
}
