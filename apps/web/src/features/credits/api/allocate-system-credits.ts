import type { AllocateSystemCreditsRequest } from '@allot/domain/credits';
import { useMutation } from '@tanstack/react-query';
import { type CreditMoveVariables, invalidateCreditQueries, postCreditMove } from './credit-move';

/** POST /api/credit/allocate/system: a system admin mints new credits into a pool, with a reason. */
export function allocateSystemCredits(variables: CreditMoveVariables<AllocateSystemCreditsRequest>) {
  return postCreditMove('/credit/allocate/system', variables);
}

export function useAllocateSystemCredits() {
  return useMutation({ mutationFn: allocateSystemCredits, onSuccess: invalidateCreditQueries });
}
