import { MSG } from '@allot/domain/messages';
import { describe, expect, it } from 'vitest';
import { fractionDigits, parseMoney, toMajor } from './money';

describe('prices in major units', () => {
  it('knows the decimals of a currency', () => {
    expect(fractionDigits('USD')).toBe(2);
    expect(fractionDigits('EUR')).toBe(2);
    expect(fractionDigits('JPY')).toBe(0);
    expect(fractionDigits('US')).toBe(2);
  });

  it('reads a typed price as minor units', () => {
    expect(parseMoney('4', 'USD', 100_000_000)).toEqual({ ok: true, value: 400 });
    expect(parseMoney('4.5', 'USD', 100_000_000)).toEqual({ ok: true, value: 450 });
    expect(parseMoney(' 4.05 ', 'USD', 100_000_000)).toEqual({ ok: true, value: 405 });
    expect(parseMoney('1,080.00', 'USD', 100_000_000)).toEqual({ ok: true, value: 108_000 });
    expect(parseMoney('1 080.00', 'USD', 100_000_000)).toEqual({ ok: true, value: 108_000 });
    expect(parseMoney('0', 'USD', 100_000_000)).toEqual({ ok: true, value: 0 });
    expect(parseMoney('4.', 'USD', 100_000_000)).toEqual({ ok: true, value: 400 });
    expect(parseMoney('450', 'JPY', 100_000_000)).toEqual({ ok: true, value: 450 });
  });

  it('refuses what is not a price, with a message for the field', () => {
    expect(parseMoney('', 'USD', 100)).toEqual({ ok: false, message: MSG.required });
    expect(parseMoney('four', 'USD', 100)).toEqual({ ok: false, message: MSG.onlyNumbers });
    expect(parseMoney('-1', 'USD', 100)).toEqual({ ok: false, message: MSG.onlyNumbers });
    expect(parseMoney('4.005', 'USD', 100_000)).toEqual({ ok: false, message: 'At most 2 decimals.' });
    expect(parseMoney('4.5', 'JPY', 100_000)).toEqual({
      ok: false,
      message: 'JPY has no cents: enter whole units.',
    });
    expect(parseMoney('1,000,000.01', 'USD', 100_000_000)).toEqual({
      ok: false,
      message: 'At most $1,000,000.00.',
    });
  });

  it('shows minor units as the text of a price field', () => {
    expect(toMajor(450, 'USD')).toBe('4.50');
    expect(toMajor(0, 'USD')).toBe('0.00');
    expect(toMajor(450, 'JPY')).toBe('450');
    // What it shows reads back as the same amount.
    for (const minor of [0, 1, 99, 300, 108_000, 100_000_000]) {
      expect(parseMoney(toMajor(minor, 'USD'), 'USD', 100_000_000)).toEqual({ ok: true, value: minor });
    }
  });
});
