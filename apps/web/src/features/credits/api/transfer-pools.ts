import type { TransferPoolsRequest } from '@allot/domain/credits';
import { useMutation } from '@tanstack/react-query';
import { type CreditMoveVariables, invalidateCreditQueries, postCreditMove } from './credit-move';

/** POST /api/credit/transfer/pools: between the shared and the protected pool of one organization (transfer_org_credits). */
export function transferPools(variables: CreditMoveVariables<TransferPoolsRequest>) {
  return postCreditMove('/credit/transfer/pools', variables);
}

export function useTransferPools() {
  return useMutation({ mutationFn: transferPools, onSuccess: invalidateCreditQueries });
}
