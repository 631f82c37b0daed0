import type { TransferUsersRequest } from '@allot/domain/credits';
import { useMutation } from '@tanstack/react-query';
import { type CreditMoveVariables, invalidateCreditQueries, postCreditMove } from './credit-move';

/** POST /api/credit/transfer/users: from one person's balance to another's (manage_users over both). */
export function transferUsers(variables: CreditMoveVariables<TransferUsersRequest>) {
  return postCreditMove('/credit/transfer/users', variables);
}

export function useTransferUsers() {
  return useMutation({ mutationFn: transferUsers, onSuccess: invalidateCreditQueries });
}
