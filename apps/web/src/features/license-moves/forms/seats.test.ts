import { MSG } from '@allot/domain/messages';
import { describe, expect, test } from 'vitest';
import { itemsOf, movedText, parseSeats, sourceSeats, totalText } from './seats';

const message = (text: string) => {
  const parsed = parseSeats(text);
  return parsed.ok ? parsed.value : parsed.message;
};

const future = '2999-01-01T00:00:00.000Z';
const past = '2000-01-01T00:00:00.000Z';
const licence = (maxUsers: number, usedSeats: number, expireAt = future) => ({
  licenseType: 'tle_teacher' as const,
  maxUsers,
  usedSeats,
  expireAt,
});

describe('the seats of a licence dialog', () => {
  test('whole numbers from 0; empty is 0 (the type is skipped)', () => {
    expect(message('')).toBe(0);
    expect(message('  ')).toBe(0);
    expect(message('0')).toBe(0);
    expect(message('12')).toBe(12);
    expect(message(' 1,500 ')).toBe(1500);
    expect(message('1 500')).toBe(1500);
  });

  test('the spec’s messages for the rest', () => {
    expect(message('-1')).toBe(MSG.min(0));
    expect(message('2.5')).toBe(MSG.invalidNumber);
    expect(message('ten')).toBe(MSG.onlyNumbers);
    expect(message('1e3')).toBe(MSG.onlyNumbers);
    expect(message('2000000')).toBe(MSG.max(1_000_000));
  });

  test('the total and the items sent: only amounts above 0, in the types’ order', () => {
    expect(totalText(3, 5)).toBe('3 organizations × 5 = 15 seats');
    expect(totalText(1, 1)).toBe('1 organization × 1 = 1 seat');
    expect(
      itemsOf(
        new Map([
          ['tle_teacher', 4],
          ['chorus', 0],
          ['tle_creator', 2],
        ] as const),
      ),
    ).toEqual([
      { type: 'tle_creator', amount: 2 },
      { type: 'tle_teacher', amount: 4 },
    ]);
    expect(
      movedText([
        { type: 'chorus', amount: 1 },
        { type: 'tle_teacher', amount: 10 },
      ]),
    ).toBe('1 Chorus seat and 10 TLE Teacher seats');
  });

  test('what the selected organizations can give back: who holds none, who has the fewest free', () => {
    const sources = [
      { id: 'a', name: 'Alpha' },
      { id: 'b', name: 'Beta' },
      { id: 'c', name: 'Gamma' },
    ];
    const held = new Map([
      ['a', [licence(10, 1)]],
      ['b', [licence(4, 2, past)]],
      ['c', []],
    ]);
    expect(sourceSeats('tle_teacher', sources, held)).toEqual({
      missing: [{ id: 'c', name: 'Gamma' }],
      fewest: { name: 'Beta', free: 2, used: 2 },
    });
    expect(sourceSeats('chorus', sources.slice(0, 1), held)).toEqual({
      missing: [{ id: 'a', name: 'Alpha' }],
      fewest: null,
    });
  });
});
