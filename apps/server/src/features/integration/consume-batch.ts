import type { ConsumeBatchItem, ConsumeBatchResult } from '@allot/domain/integration';
import type { Tx } from '../../db/client';
import type { IntegrationCaller } from '../../http/authenticate';
import type { KeyAlongside } from '../../http/idempotency';
import { type ConsumeOutcome, consumeEach } from './consume-credits';

/**
 * POST /api/integration/consume/batch (CONTRACT §9), inside the caller's transaction (idempotentWrite): each
 * item applied or refused on its own, in order, as the single call would answer it alone, so a later item
 * sees the balances the earlier ones left; all of them in one lookup, one lock of the accounts in id order and
 * one posting call (`consumeEach`, decision 016). A refused item takes nothing and answers the single call's
 * error code, message and details with `balances: null`; any other error fails the whole batch.
 */
export async function consumeBatch(
  tx: Tx,
  caller: IntegrationCaller,
  items: ConsumeBatchItem[],
  key?: KeyAlongside | null,
): Promise<{ results: ConsumeBatchResult[] }> {
  const bodyOf = (outcomes: ConsumeOutcome[]) => ({ results: resultsOf(items, outcomes) });
  return bodyOf(await consumeEach(tx, caller, items, key ? { key, bodyOf } : undefined));
}

/** Each item's result, in the order of the items. */
function resultsOf(items: readonly ConsumeBatchItem[], outcomes: ConsumeOutcome[]): ConsumeBatchResult[] {
  return outcomes.map((outcome, index): ConsumeBatchResult => {
    const reference = (items[index] as ConsumeBatchItem).reference;
    if (outcome.ok) return { reference, status: 'consumed', ...outcome.answer };
    const { error } = outcome;
    return {
      reference,
      status: 'refused',
      consumed: 0,
      fromOwn: 0,
      fromShared: 0,
      balances: null,
      error: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    };
  });
}
