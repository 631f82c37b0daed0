import type { PriceList } from '@allot/domain/invoices';
import { MSG } from '@allot/domain/messages';
import { describe, expect, it } from 'vitest';
import { DUPLICATE_PACK, type PriceListValues, priceListFormSchema, toFormValues } from './price-list-form';

/** The price list a fresh installation starts with (migration 0013). */
const seeded: PriceList = {
  currency: 'USD',
  licenses: [
    { licenseType: 'chorus', pricePerSeatMonth: 400, hasFreeTier: false },
    { licenseType: 'tle_creator', pricePerSeatMonth: 900, hasFreeTier: false },
    { licenseType: 'tle_teacher', pricePerSeatMonth: 300, hasFreeTier: true },
    { licenseType: 'chorus_optoma', pricePerSeatMonth: 600, hasFreeTier: false },
  ],
  creditPacks: [
    { credits: 1000, price: 1000 },
    { credits: 5000, price: 4500 },
  ],
};

function issues(values: PriceListValues) {
  const parsed = priceListFormSchema.safeParse(values);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('the price-list form', () => {
  it('shows prices in major units and sends them back unchanged', () => {
    const values = toFormValues(seeded);
    expect(values.licenses[2]).toEqual({
      licenseType: 'tle_teacher',
      pricePerSeatMonth: '3.00',
      hasFreeTier: true,
    });
    expect(values.creditPacks[1]).toEqual({ credits: '5,000', price: '45.00' });
    expect(priceListFormSchema.parse(values)).toEqual(seeded);
  });

  it('takes a changed price in major units as minor units', () => {
    const values = toFormValues(seeded);
    values.licenses[0] = { licenseType: 'chorus', pricePerSeatMonth: '4.25', hasFreeTier: true };
    values.creditPacks.push({ credits: '20,000', price: '160' }, { credits: '1 500', price: '1 200' });
    values.currency = 'eur';
    const list = priceListFormSchema.parse(values);
    expect(list.currency).toBe('EUR');
    expect(list.licenses[0]).toEqual({ licenseType: 'chorus', pricePerSeatMonth: 425, hasFreeTier: true });
    expect(list.creditPacks[2]).toEqual({ credits: 20_000, price: 16_000 });
    // Thousands grouped with a space, as every number field of the app reads them (lib/numbers.ts).
    expect(list.creditPacks[3]).toEqual({ credits: 1500, price: 120_000 });
  });

  it('puts each refusal on its field', () => {
    const values = toFormValues(seeded);
    values.currency = 'dollars';
    values.licenses[1] = { licenseType: 'tle_creator', pricePerSeatMonth: 'nine', hasFreeTier: false };
    values.creditPacks = [
      { credits: '1000', price: '10' },
      { credits: '1,000', price: '' },
      { credits: '0', price: '1.234' },
    ];
    expect(issues(values)).toEqual({
      currency: 'Enter a three-letter currency code, such as USD.',
      'licenses.1.pricePerSeatMonth': MSG.onlyNumbers,
      'creditPacks.1.credits': DUPLICATE_PACK,
      'creditPacks.1.price': MSG.required,
      'creditPacks.2.credits': MSG.min(1),
      'creditPacks.2.price': 'At most 2 decimals.',
    });
  });
});
