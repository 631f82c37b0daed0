import type { TransferOrganizationsRequest } from '@allot/domain/credits';
import { useMutation } from '@tanstack/react-query';
import { type CreditMoveVariables, invalidateCreditQueries, postCreditMove } from './credit-move';

/** POST /api/credit/transfer/organizations: from a pool of one organization to a pool of another (transfer_org_credits on both). */
export function transferOrganizations(variables: CreditMoveVariables<TransferOrganizationsRequest>) {
  return postCreditMove('/credit/transfer/organizations', variables);
}

export function useTransferOrganizations() {
  return useMutation({ mutationFn: transferOrganizations, onSuccess: invalidateCreditQueries });
}
