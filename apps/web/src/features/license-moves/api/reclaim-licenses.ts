import type { LicenseMoveResponse, ReclaimLicensesRequest } from '@allot/domain/licenses';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import {
  invalidateAfterLicenceMove,
  type LicenceMoveVariables,
  refetchAfterRefusal,
  withKey,
} from './license-move';

/** POST /api/license/reclaim/organizations: `amount` free seats of each type back from each organization below. */
export function reclaimLicenses({
  input,
  idempotencyKey,
}: LicenceMoveVariables<ReclaimLicensesRequest>): Promise<LicenseMoveResponse> {
  return api.post<LicenseMoveResponse>('/license/reclaim/organizations', input, withKey(idempotencyKey));
}

export function useReclaimLicenses() {
  return useMutation({
    mutationFn: reclaimLicenses,
    onSuccess: (answer, { input }) =>
      invalidateAfterLicenceMove(answer, input.targetOrganizationId, input.sourceOrganizationIds),
    onError: (error, { input }) =>
      refetchAfterRefusal(error, input.targetOrganizationId, input.sourceOrganizationIds),
  });
}
