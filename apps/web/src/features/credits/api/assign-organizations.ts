import type { AssignOrganizationsRequest } from '@allot/domain/credits';
import { useMutation } from '@tanstack/react-query';
import { type CreditMoveVariables, invalidateCreditQueries, postCreditMove } from './credit-move';

/** POST /api/credit/assign/organizations: `amount` to each organization below the source (transfer_org_credits). */
export function assignOrganizations(variables: CreditMoveVariables<AssignOrganizationsRequest>) {
  return postCreditMove('/credit/assign/organizations', variables);
}

export function useAssignOrganizations() {
  return useMutation({ mutationFn: assignOrganizations, onSuccess: invalidateCreditQueries });
}
