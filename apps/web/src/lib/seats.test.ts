import { describe, expect, test } from 'vitest';
import { freeSeats, unusedSeats } from './seats';

const future = '2999-01-01T00:00:00.000Z';
const past = '2000-01-01T00:00:00.000Z';
const licence = (maxUsers: number, usedSeats: number, expireAt = future) => ({
  licenseType: 'tle_teacher' as const,
  maxUsers,
  usedSeats,
  expireAt,
});

describe('the seats of a licence', () => {
  test('free seats: none on an expired licence, while its unused seats can still come back', () => {
    expect(freeSeats(licence(30, 18))).toBe(12);
    expect(freeSeats(licence(5, 7))).toBe(0);
    expect(freeSeats(licence(30, 18, past))).toBe(0);
    expect(unusedSeats(licence(30, 18, past))).toBe(12);
    // The server's word counts too: its clock said expired.
    expect(freeSeats({ ...licence(30, 18), expired: true })).toBe(0);
  });
});
