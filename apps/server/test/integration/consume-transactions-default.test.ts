import { describe, expect, it } from 'vitest';
import { defaultConsumeTransactions } from '../../src/features/integration/consume-queue';

describe('CONSUME_TRANSACTIONS unset: 2 shared among the server processes (decision 016)', () => {
  it('gives one process 2, and every process of more at least one', () => {
    expect([1, 2, 3, 4, 8, 16].map(defaultConsumeTransactions)).toEqual([2, 1, 1, 1, 1, 1]);
  });
});
