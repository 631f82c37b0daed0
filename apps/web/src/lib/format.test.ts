import { describe, expect, it } from 'vitest';
import { formatCountOf, formatMediumDay, formatShortDay } from './format';

describe('formatCountOf', () => {
  it('puts the noun in number, with thousands separated', () => {
    expect(formatCountOf(1, 'user', 'users')).toBe('1 user');
    expect(formatCountOf(0, 'user', 'users')).toBe('0 users');
    expect(formatCountOf(1204, 'seat is', 'seats are')).toBe('1,204 seats are');
  });
});

describe('a UTC calendar day', () => {
  it('shows a UTC day as that day whatever the time zone', () => {
    expect(formatShortDay('2026-03-01')).toBe('Mar 1');
    expect(formatMediumDay('2026-03-01')).toBe('Mar 1, 2026');
  });
});

describe('a chart passing its own values', () => {
  it('shows what is not a day as it is, never throws', () => {
    expect(formatShortDay(0)).toBe('0');
    expect(formatShortDay(undefined)).toBe('');
    expect(formatShortDay('auto')).toBe('auto');
  });
});
