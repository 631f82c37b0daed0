import type { CreditMoveResponse } from '@allot/domain/credits';
import { api } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';

/** What every credit-move hook is called with: the request and the key that makes a repeat harmless. */
export interface CreditMoveVariables<T> {
  input: T;
  /** `Idempotency-Key` (CONTRACT §5): the same key and body move credits once, however often sent. */
  idempotencyKey: string;
}

/** POST one of the credit moves (CONTRACT §5) with its `Idempotency-Key`. */
export function postCreditMove<T>(path: string, { input, idempotencyKey }: CreditMoveVariables<T>) {
  return api.post<CreditMoveResponse>(path, input, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/**
 * After a move: every cached view that shows a balance (the organization's pools, the picker cards, the
 * sub-organizations and users tables) or the credit log is refetched.
 */
export async function invalidateCreditQueries(): Promise<void> {
  await Promise.all(
    ['organization', 'organizations', 'sub-organizations', 'users', 'credit-log'].map((key) =>
      queryClient.invalidateQueries({ queryKey: [key] }),
    ),
  );
}
