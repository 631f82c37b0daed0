import type { ReclaimOrganizationsRequest } from '@allot/domain/credits';
import { useMutation } from '@tanstack/react-query';
import { type CreditMoveVariables, invalidateCreditQueries, postCreditMove } from './credit-move';

/** POST /api/credit/reclaim/organizations: `amount` from each organization below the target (transfer_org_credits). */
export function reclaimOrganizations(variables: CreditMoveVariables<ReclaimOrganizationsRequest>) {
  return postCreditMove('/credit/reclaim/organizations', variables);
}

export function useReclaimOrganizations() {
  return useMutation({ mutationFn: reclaimOrganizations, onSuccess: invalidateCreditQueries });
}
