import { describe, expect, it } from 'vitest';
import { changeLines, fieldLabel } from './change-text';

describe('an audit entry in words', () => {
  it('names fields in words', () => {
    expect(fieldLabel('maxUsers')).toBe('max users');
    expect(fieldLabel('license_type')).toBe('licence type');
    expect(fieldLabel('licenseType')).toBe('licence type');
  });

  it('says an invoice mail was queued, not that it was delivered', () => {
    expect(changeLines(null, { mailed: true })).toEqual(['mail to the customer: queued']);
    expect(changeLines(null, { mailed: false })).toEqual([
      "mail to the customer: not sent (the day's invoice mails to outside addresses were used up)",
    ]);
  });

  it('shows each changed field before → after', () => {
    expect(changeLines({ role: 'organization_admin' }, { role: 'user' })).toEqual(['role: Admin → Teacher']);
    expect(changeLines({ maxUsers: 1000 }, { maxUsers: 1500 })).toEqual(['max users: 1,000 → 1,500']);
  });

  it('says money as money, and invoices as the invoices screen does', () => {
    expect(
      changeLines(null, { kind: 'credits', amount: 192000, currency: 'USD', customerEmail: 'a@b.test' }),
    ).toEqual(['kind: Credits', 'amount: $1,920.00', 'customer email: a@b.test']);
    expect(changeLines(null, { kind: 'add_users' })).toEqual(['kind: More seats']);
    expect(changeLines(null, { creditPool: 'shared' })).toEqual(['credit pool: Shared pool']);
    expect(
      changeLines({ status: 'open' }, { status: 'fulfilled', fulfilmentMethod: 'paid_out_of_band' }),
    ).toEqual(['status: Open → Fulfilled', 'fulfilment method: — → Paid another way']);
  });

  it("says a request's status as the Requests screen does", () => {
    expect(changeLines({ status: 'open' }, { status: 'declined' })).toEqual(['status: Open → Declined']);
  });

  it('says licence types, pools and what a request asks for by their labels, not their codes', () => {
    expect(changeLines(null, { email: 'a@b.test', role: 'user', licence: 'tle_teacher' })).toEqual([
      'email: a@b.test',
      'role: Teacher',
      'licence: TLE Teacher',
    ]);
    expect(changeLines({ licence: null }, { licence: 'chorus' })).toEqual(['licence: — → Chorus']);
    expect(changeLines(null, { kind: 'credits', amount: 2500, pool: 'shared' })).toEqual([
      'kind: Credits',
      'amount: 2,500',
      'pool: Shared pool',
    ]);
    expect(changeLines(null, { kind: 'seats', licenseType: 'chorus_optoma' })).toEqual([
      'kind: Seats',
      'licence type: Chorus Optoma',
    ]);
  });

  it('lists what a creation made and what a removal took', () => {
    expect(changeLines(null, { name: 'Maple', credits: 20 })).toEqual(['name: Maple', 'credits: 20']);
    expect(changeLines({ name: 'Maple' }, null)).toEqual(['name: Maple → —']);
    expect(changeLines(null, null)).toEqual([]);
  });
});
