import type { AssignLicensesRequest, LicenseMoveResponse } from '@allot/domain/licenses';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import {
  invalidateAfterLicenceMove,
  type LicenceMoveVariables,
  refetchAfterRefusal,
  withKey,
} from './license-move';

/** POST /api/license/assign/organizations: `amount` free seats of each type to each organization below. */
export function assignLicenses({
  input,
  idempotencyKey,
}: LicenceMoveVariables<AssignLicensesRequest>): Promise<LicenseMoveResponse> {
  return api.post<LicenseMoveResponse>('/license/assign/organizations', input, withKey(idempotencyKey));
}

export function useAssignLicenses() {
  return useMutation({
    mutationFn: assignLicenses,
    onSuccess: (answer, { input }) =>
      invalidateAfterLicenceMove(answer, input.sourceOrganizationId, input.targetOrganizationIds),
    onError: (error, { input }) =>
      refetchAfterRefusal(error, input.sourceOrganizationId, input.targetOrganizationIds),
  });
}
