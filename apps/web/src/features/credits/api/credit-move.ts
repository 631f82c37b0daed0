import type { CreditMoveResponse } from '@allot/domain/credits';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { balanceViews } from '../../../lib/query-keys';

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
 * After a move: every cached view that shows a balance (the organizations' pools, the picker and search
 * cards, the sub-organizations and members tables) and every credit log is fetched again, and the dialog
 * waits for it before closing (decision 006, "After a move"). Deliberately all of them, not only the parties
 * of the move: a person's balance shows in every organization they belong to, which the client does not know.
 */
export function invalidateCreditQueries(): Promise<void> {
  return invalidate(balanceViews());
}
