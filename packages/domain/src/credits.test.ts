import { describe, expect, it } from 'vitest';
import { reclaimableUnder } from './credits';

describe('reclaimableUnder', () => {
  const pools = { shared: 300, protected: 50 };

  it('takes only the named pool with "only" strategies', () => {
    expect(reclaimableUnder('shared', pools)).toBe(300);
    expect(reclaimableUnder('protected', pools)).toBe(50);
  });

  it('takes both pools with "first" strategies, whichever comes first', () => {
    expect(reclaimableUnder('shared_first', pools)).toBe(350);
    expect(reclaimableUnder('protected_first', pools)).toBe(350);
  });
});
