import { describe, expect, it } from 'vitest';
import { reclaimAllCalls, reclaimAllTotal } from './reclaim-all';

const person = (name: string, credits: number) => ({ id: name, name, email: `${name}@x.test`, credits });

describe('reclaim everything each holds', () => {
  it('makes one call per distinct balance, largest first, and leaves out who holds nothing', () => {
    const calls = reclaimAllCalls([
      person('ann', 40),
      person('bob', 0),
      person('cid', 250),
      person('dee', 40),
    ]);
    expect(calls.map((c) => [c.amount, c.users.map((u) => u.name)])).toEqual([
      [250, ['cid']],
      [40, ['ann', 'dee']],
    ]);
    expect(reclaimAllTotal(calls)).toBe(330);
  });

  it('makes no call when nobody holds anything', () => {
    expect(reclaimAllCalls([person('bob', 0)])).toEqual([]);
    expect(reclaimAllTotal([])).toBe(0);
  });
});
