import { describe, expect, it } from 'vitest';
import { takeOncePerKey } from '../../src/lib/take-once-per-key';

describe('a shared transaction’s requests', () => {
  it('take each key once, in order, up to the most; a repeat and the overflow wait in their order', () => {
    const items = ['a1', 'b1', 'a2', '-1', 'c1', '-2', 'd1', 'b2'];
    const key = (item: string) => (item.startsWith('-') ? null : (item[0] as string));
    expect(takeOncePerKey(items, 5, key)).toEqual({
      taken: ['a1', 'b1', '-1', 'c1', '-2'],
      left: ['a2', 'd1', 'b2'],
    });
    expect(takeOncePerKey(items, 100, key).left).toEqual(['a2', 'b2']);
  });
});
