import type { ConsumeBatchItem, ConsumeBatchResult } from '@allot/domain/integration';
import type { Tx } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { IntegrationCaller } from '../../http/authenticate';
import { consumeCredits } from './consume-service';

/** A refusal the single call would answer: the item's result says so, and the batch goes on. */
function isRefusal(error: unknown): error is AppError {
  // A `conflict` is colliding writes, not a refusal: the whole batch is retried or answers 409.
  return error instanceof AppError && error.status < 500 && error.code !== 'conflict';
}

/**
 * POST /api/integration/consume/batch (CONTRACT §9), inside the caller's transaction (idempotentWrite): each
 * item applied or refused on its own, in order, as `consumeCredits` would answer it alone, so a later item
 * sees the balances the earlier ones left. A refused item takes nothing (its savepoint is rolled back) and
 * answers the single call's error code, message and details with `balances: null`; any other error fails
 * the whole batch.
 */
export async function consumeBatch(
  tx: Tx,
  caller: IntegrationCaller,
  items: ConsumeBatchItem[],
): Promise<ConsumeBatchResult[]> {
  const results: ConsumeBatchResult[] = [];
  for (const item of items) {
    try {
      const answer = await tx.transaction((savepoint) => consumeCredits(savepoint, caller, item));
      results.push({ reference: item.reference, status: 'consumed', ...answer });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      results.push({
        reference: item.reference,
        status: 'refused',
        consumed: 0,
        fromOwn: 0,
        fromShared: 0,
        balances: null,
        error: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      });
    }
  }
  return results;
}
