import type { ReclaimUsersRequest } from '@allot/domain/credits';
import { useMutation } from '@tanstack/react-query';
import { type CreditMoveVariables, invalidateCreditQueries, postCreditMove } from './credit-move';

/** POST /api/credit/reclaim/users: `amount` from each member into a pool of the organization (manage_users). */
export function reclaimUsers(variables: CreditMoveVariables<ReclaimUsersRequest>) {
  return postCreditMove('/credit/reclaim/users', variables);
}

export function useReclaimUsers() {
  return useMutation({ mutationFn: reclaimUsers, onSuccess: invalidateCreditQueries });
}
