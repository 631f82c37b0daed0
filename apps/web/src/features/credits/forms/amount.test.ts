import { describe, expect, test } from 'vitest';
import { mostEach } from './amount';

describe('the amount of a credit dialog', () => {
  test('the most each of several targets may get', () => {
    expect(mostEach(1000, 3)).toBe(333);
    expect(mostEach(50, 1)).toBe(50);
    expect(mostEach(0, 2)).toBe(0);
  });
});
