import { describe, expect, it } from 'vitest';
import { amountText, askedText, decisionText } from './request-texts';

describe('request texts', () => {
  it('name what is asked, in number', () => {
    expect(amountText('credits', 1, null)).toBe('1 credit');
    expect(amountText('credits', 1500, null)).toBe('1,500 credits');
    expect(amountText('seats', 1, 'chorus')).toBe('1 Chorus seat');
    expect(amountText('seats', 3, 'tle_teacher')).toBe('3 TLE Teacher seats');
  });

  it('say which pool credits are asked for', () => {
    expect(askedText({ kind: 'credits', amount: 300, pool: 'shared', licenseType: null })).toBe(
      '300 credits (shared pool)',
    );
    expect(askedText({ kind: 'credits', amount: 300, pool: 'protected', licenseType: null })).toBe(
      '300 credits (protected pool)',
    );
    expect(askedText({ kind: 'seats', amount: 2, pool: null, licenseType: 'chorus' })).toBe('2 Chorus seats');
  });

  it('say what an approval gave when it gave less than asked', () => {
    expect(decisionText({ status: 'approved', amount: 300, approvedAmount: 200 })).toBe('200 of 300 given');
    expect(decisionText({ status: 'approved', amount: 300, approvedAmount: 300 })).toBe('Given in full');
    expect(decisionText({ status: 'declined', amount: 300, approvedAmount: null })).toBeNull();
    expect(decisionText({ status: 'open', amount: 300, approvedAmount: null })).toBeNull();
  });
});
