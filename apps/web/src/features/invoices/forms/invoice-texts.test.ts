import type { Invoice } from '@allot/domain/invoices';
import { describe, expect, it } from 'vitest';
import { invoiceLicenceLabel, methodSentence, purchaseSentence } from './invoice-texts';

const base: Invoice = {
  id: '6d1b5a9e-3f0c-4c53-9a55-2a3f8f0c1a11',
  number: 'INV-K7M3QD-0001',
  organizationId: '0b0e4a59-0d43-4b54-8c1f-5a3f2b9c7d10',
  organizationName: 'Alpha District',
  organizationDeleted: false,
  status: 'open',
  kind: 'new_license',
  licenseType: 'tle_teacher',
  licenseId: null,
  period: '1y',
  credits: null,
  description: '30 TLE Teacher seats for 1 year',
  customerEmail: 'owner@alpha.test',
  purchaseOrder: null,
  mailed: true,
  amount: 108_000,
  currency: 'USD',
  createdAt: '2026-03-05T10:00:00.000Z',
  dueDate: '2026-04-04T10:00:00.000Z',
  licenseExpirationDays: 365,
  extendUsersQuantity: null,
  newUsersQuantity: 30,
  fulfilmentMethod: null,
  fulfilledAt: null,
  voidedAt: null,
  createdBy: null,
  creditPool: null,
  payee: null,
  paymentInstructions: null,
};

describe('invoice texts', () => {
  it('names the licence of a row, or Credits', () => {
    expect(invoiceLicenceLabel(base)).toBe('TLE Teacher');
    expect(invoiceLicenceLabel({ licenseType: null })).toBe('Credits');
  });

  it('says what a fulfilment applies, for each kind', () => {
    expect(purchaseSentence(base)).toBe('30 TLE Teacher seats for 1 year will be added to Alpha District.');
    expect(
      purchaseSentence({
        ...base,
        kind: 'extend_license',
        period: '6m',
        newUsersQuantity: null,
        extendUsersQuantity: 1200,
      }),
    ).toBe(
      'The TLE Teacher licence of Alpha District (1,200 seats) will be extended by 6 months, and the licences handed down from it with it.',
    );
    expect(purchaseSentence({ ...base, kind: 'add_users', period: null, newUsersQuantity: 1 })).toBe(
      '1 TLE Teacher seat will be added to the TLE Teacher licence of Alpha District.',
    );
    expect(
      purchaseSentence({
        ...base,
        kind: 'credits',
        licenseType: null,
        period: null,
        newUsersQuantity: null,
        credits: 20_000,
        creditPool: 'shared',
      }),
    ).toBe('20,000 AI credits will be added to the shared pool of Alpha District.');
    expect(
      purchaseSentence({
        ...base,
        kind: 'credits',
        credits: 500,
        licenseType: null,
        creditPool: 'protected',
      }),
    ).toBe('500 AI credits will be added to the protected pool of Alpha District.');
    // Fields missing (never, from the server): the invoice's own description.
    expect(purchaseSentence({ ...base, period: null })).toBe(
      '30 TLE Teacher seats for 1 year will be applied to Alpha District.',
    );
  });

  it('says how each option settles the invoice', () => {
    expect(methodSentence('payment', base)).toBe('INV-K7M3QD-0001 is marked as paid ($1,080.00).');
    expect(methodSentence('paid_out_of_band', base)).toBe(
      'INV-K7M3QD-0001 is marked as paid another way, outside the panel ($1,080.00).',
    );
    expect(methodSentence('free', base)).toBe(
      'INV-K7M3QD-0001 is fulfilled for free: the $1,080.00 are not charged.',
    );
  });
});
