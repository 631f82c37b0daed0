import { describe, expect, it } from 'vitest';
import { formatCountOf } from './format';

describe('formatCountOf', () => {
  it('puts the noun in number, with thousands separated', () => {
    expect(formatCountOf(1, 'user', 'users')).toBe('1 user');
    expect(formatCountOf(0, 'user', 'users')).toBe('0 users');
    expect(formatCountOf(1204, 'seat is', 'seats are')).toBe('1,204 seats are');
  });
});
