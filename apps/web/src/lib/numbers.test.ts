import { MSG } from '@allot/domain/messages';
import { describe, expect, it } from 'vitest';
import { parseWhole, typedNumber, typedValue, ungroup } from './numbers';

describe('a typed number (the one rule of every number field)', () => {
  it('reads thousands grouped with commas or spaces, in threes only', () => {
    expect(typedNumber('1500')).toBe(1500);
    expect(typedNumber('1,500')).toBe(1500);
    expect(typedNumber('1 500')).toBe(1500);
    expect(typedNumber(' 1,234,567 ')).toBe(1_234_567);
    expect(typedNumber('1 234 567')).toBe(1_234_567);
    expect(typedNumber('1,080.50')).toBe(1080.5);
    expect(typedNumber('+7')).toBe(7);
    expect(typedNumber('-1,000')).toBe(-1000);
    expect(ungroup(' 1 500 ')).toBe('1500');
  });

  it('is none for text that is no number', () => {
    for (const text of [
      '',
      ' ',
      'ten',
      '12abc',
      '1e3',
      '0x10',
      '1,50',
      '15,00',
      '1 50',
      '1,500 000x',
      'Infinity',
    ]) {
      expect(typedNumber(text)).toBeNull();
    }
  });

  it('hands a domain schema the number, or the text to refuse', () => {
    expect(typedValue('1 500')).toBe(1500);
    expect(typedValue(' ten ')).toBe('ten');
    expect(typedValue('')).toBe('');
  });
});

describe('a whole number within a range', () => {
  it('reads seats and credits, grouped or not', () => {
    expect(parseWhole('30', 1, 100)).toEqual({ ok: true, value: 30 });
    expect(parseWhole('20,000', 1, 100_000)).toEqual({ ok: true, value: 20_000 });
    expect(parseWhole('1 500', 1, 100_000)).toEqual({ ok: true, value: 1500 });
  });

  it("refuses with the spec's messages", () => {
    expect(parseWhole(' ', 1, 100)).toEqual({ ok: false, message: MSG.required });
    expect(parseWhole('ten', 1, 100)).toEqual({ ok: false, message: MSG.onlyNumbers });
    expect(parseWhole('1,50', 1, 100)).toEqual({ ok: false, message: MSG.onlyNumbers });
    expect(parseWhole('2.5', 1, 100)).toEqual({ ok: false, message: MSG.invalidNumber });
    expect(parseWhole('0', 1, 100)).toEqual({ ok: false, message: MSG.min(1) });
    expect(parseWhole('-3', 1, 100)).toEqual({ ok: false, message: MSG.min(1) });
    expect(parseWhole('101', 1, 100)).toEqual({ ok: false, message: MSG.max(100) });
  });
});
