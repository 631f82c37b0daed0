import type { AssignUsersRequest } from '@allot/domain/credits';
import { useMutation } from '@tanstack/react-query';
import { type CreditMoveVariables, invalidateCreditQueries, postCreditMove } from './credit-move';

/** POST /api/credit/assign/users: `amount` to each member from a pool of the organization (manage_users). */
export function assignUsers(variables: CreditMoveVariables<AssignUsersRequest>) {
  return postCreditMove('/credit/assign/users', variables);
}

export function useAssignUsers() {
  return useMutation({ mutationFn: assignUsers, onSuccess: invalidateCreditQueries });
}
