import { MSG } from '@allot/domain/messages';
import { describe, expect, test } from 'vitest';
import { amountField } from './credit-amount';

const messageOf = (text: string) => {
  const parsed = amountField.safeParse(text);
  return parsed.success ? parsed.data : parsed.error.issues[0]?.message;
};

describe('the amount of a credit dialog', () => {
  test('whole numbers, also grouped as the app shows them', () => {
    expect(messageOf('250')).toBe(250);
    expect(messageOf(' 1,500 ')).toBe(1500);
    expect(messageOf('1 500')).toBe(1500);
    expect(messageOf('+7')).toBe(7);
  });

  test('the spec’s messages for what is not a positive whole number', () => {
    expect(messageOf('')).toBe(MSG.required);
    expect(messageOf('0')).toBe(MSG.creditsGreaterThanZero);
    expect(messageOf('-5')).toBe(MSG.creditsGreaterThanZero);
    expect(messageOf('1.5')).toBe(MSG.invalidNumber);
    expect(messageOf('12abc')).toBe(MSG.onlyNumbers);
    expect(messageOf('1e3')).toBe(MSG.onlyNumbers);
    expect(messageOf('1,50')).toBe(MSG.onlyNumbers);
    expect(messageOf('2000000000')).toBe(MSG.max(1_000_000_000));
  });
});
