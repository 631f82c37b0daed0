import { describe, expect, it } from 'vitest';
import { dateFieldValue, expiryFromField, expiryState, inOneYear } from './expiry';

const now = new Date('2026-03-05T12:00:00.000Z');

describe('licence expiry', () => {
  it('is flagged within 30 days, and once past', () => {
    expect(expiryState('2027-03-05T00:00:00.000Z', now)).toBe('active');
    expect(expiryState('2026-04-05T12:00:00.001Z', now)).toBe('active');
    expect(expiryState('2026-04-04T12:00:00.000Z', now)).toBe('soon');
    expect(expiryState('2026-03-05T12:00:01.000Z', now)).toBe('soon');
    expect(expiryState('2026-03-05T12:00:00.000Z', now)).toBe('expired');
    expect(expiryState('2025-01-01T00:00:00.000Z', now)).toBe('expired');
  });

  it('is edited as a day in UTC, and left as it was when the day is not changed', () => {
    const current = '2027-03-05T17:45:12.000Z';
    expect(dateFieldValue(current)).toBe('2027-03-05');
    expect(expiryFromField('2027-03-05', current)).toBe(current);
    expect(expiryFromField('2027-06-30', current)).toBe('2027-06-30T00:00:00.000Z');
    expect(expiryFromField('2027-06-30')).toBe('2027-06-30T00:00:00.000Z');
  });

  it('a new licence runs a year by default', () => {
    expect(inOneYear(now)).toBe('2027-03-05');
  });
});
