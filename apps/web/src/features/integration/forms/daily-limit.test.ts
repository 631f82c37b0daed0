import { MSG } from '@allot/domain/messages';
import { describe, expect, it } from 'vitest';
import { consumedTodayText, dailyLimitField, dailyLimitText, savedLimitText } from './daily-limit';

const read = (text: string) => {
  const parsed = dailyLimitField.safeParse(text);
  return parsed.success ? { value: parsed.data } : { message: parsed.error.issues[0]?.message };
};

describe('the daily limit field', () => {
  it('is no limit when empty (spaces too)', () => {
    expect(read('')).toEqual({ value: null });
    expect(read('   ')).toEqual({ value: null });
  });

  it('reads whole credits, grouped as the app shows them too', () => {
    expect(read('500')).toEqual({ value: 500 });
    expect(read(' 1,500 ')).toEqual({ value: 1500 });
  });

  it("refuses what the server would, with the spec's messages", () => {
    expect(read('0')).toEqual({ message: MSG.creditsGreaterThanZero });
    expect(read('-5')).toEqual({ message: MSG.creditsGreaterThanZero });
    expect(read('2.5')).toEqual({ message: MSG.invalidNumber });
    expect(read('ten')).toEqual({ message: MSG.onlyNumbers });
    expect(read('2000000000')).toEqual({ message: MSG.max(1_000_000_000) });
  });

  it('shows a saved limit back as the number, and no limit as an empty field', () => {
    expect(dailyLimitText(1500)).toBe('1500');
    expect(dailyLimitText(null)).toBe('');
    expect(read(dailyLimitText(1500))).toEqual({ value: 1500 });
  });
});

describe("today's consumption", () => {
  it('says what was used, and with a limit what is left (never below none)', () => {
    expect(consumedTodayText(0, null)).toBe('0 credits used today');
    expect(consumedTodayText(1, null)).toBe('1 credit used today');
    expect(consumedTodayText(1204, 5000)).toBe('1,204 credits used today, 3,796 left');
    expect(consumedTodayText(700, 500)).toBe('700 credits used today, 0 left');
  });

  it('the notice after saving names the limit or its absence', () => {
    expect(savedLimitText(500, 'Riverside District')).toBe(
      'The classroom product may consume at most 500 credits a day in Riverside District.',
    );
    expect(savedLimitText(null, 'Riverside District')).toMatch(/^Riverside District has no daily limit/);
  });
});
