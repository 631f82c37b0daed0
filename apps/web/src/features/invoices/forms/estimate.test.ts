import { formatMoney, type PriceList } from '@allot/domain/invoices';
import { describe, expect, it } from 'vitest';
import { estimateLicence, monthsToExpiry, periodMonths } from './estimate';

const list: PriceList = {
  currency: 'USD',
  licenses: [
    { licenseType: 'chorus', pricePerSeatMonth: 400, hasFreeTier: false },
    { licenseType: 'tle_creator', pricePerSeatMonth: 900, hasFreeTier: false },
    { licenseType: 'tle_teacher', pricePerSeatMonth: 300, hasFreeTier: true },
    { licenseType: 'chorus_optoma', pricePerSeatMonth: 600, hasFreeTier: false },
  ],
  creditPacks: [],
};

describe('the amount a licence invoice will have', () => {
  it('is seats × months × the price per seat per month', () => {
    const estimate = estimateLicence(list, 'tle_teacher', 30, periodMonths('1y'));
    expect(estimate).toEqual({
      seats: 30,
      months: 12,
      pricePerSeatMonth: 300,
      hasFreeTier: true,
      amount: 108_000,
    });
    expect(formatMoney(estimate.amount, list.currency)).toBe('$1,080.00');
    expect(estimateLicence(list, 'chorus', 5, periodMonths('3m')).amount).toBe(6_000);
  });

  it('a type missing from the list costs nothing', () => {
    expect(estimateLicence({ ...list, licenses: [] }, 'chorus', 5, 12).amount).toBe(0);
  });

  it('added seats pay the whole months left, none once expired', () => {
    const now = new Date('2026-03-05T10:00:00Z');
    expect(monthsToExpiry(now, '2026-09-05T10:00:00Z')).toBe(6);
    expect(monthsToExpiry(now, '2026-09-06T10:00:00Z')).toBe(7);
    expect(monthsToExpiry(now, '2026-03-06T10:00:00Z')).toBe(1);
    expect(monthsToExpiry(now, '2026-03-05T10:00:00Z')).toBeNull();
    expect(monthsToExpiry(now, '2025-12-31T00:00:00Z')).toBeNull();
  });
});
