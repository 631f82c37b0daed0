import type { UpTreeRequest } from '@allot/domain/requests';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfterApproval, type RequestRef, refetchAfterRefusal } from './request-views';

export interface ApproveInput {
  request: RequestRef;
  /** At most the asked amount. */
  amount: number;
}

/**
 * POST /api/request/{id}/approve (CONTRACT §11): the allocation is made in the same transaction; `422` when
 * the organization above lacks the credits or seats, `409` when the request is no longer open.
 */
export function approveRequest({ request, amount }: ApproveInput) {
  return api.post<UpTreeRequest>(`/request/${encodeURIComponent(request.id)}/approve`, { amount });
}

export function useApproveRequest() {
  return useMutation({
    mutationFn: approveRequest,
    onSuccess: (_answer, { request }) => invalidateAfterApproval(request),
    onError: (error, { request }) => refetchAfterRefusal(error, request),
  });
}
