import { CREDIT_ALERT_MESSAGES } from '@allot/domain/insights';
import { describe, expect, it } from 'vitest';
import { checkThresholds, thresholdText } from './alert-thresholds';

describe('low-balance thresholds in the form', () => {
  it('accepts whole numbers in range, with a thousands separator typed', () => {
    expect(
      checkThresholds([
        { kind: 'percent_of_last_topup', value: '10' },
        { kind: 'credits', value: '1,500' },
        { kind: 'credits', value: '2 500' },
      ]),
    ).toEqual({
      ok: true,
      thresholds: [
        { kind: 'percent_of_last_topup', value: 10 },
        { kind: 'credits', value: 1500 },
        { kind: 'credits', value: 2500 },
      ],
    });
  });

  it('puts the domain message on the row that is wrong', () => {
    const check = checkThresholds([
      { kind: 'credits', value: '500' },
      { kind: 'percent_of_last_topup', value: '100' },
      { kind: 'credits', value: '' },
    ]);
    expect(check).toEqual({
      ok: false,
      rowErrors: [null, CREDIT_ALERT_MESSAGES.percent, CREDIT_ALERT_MESSAGES.credits],
      formError: null,
    });
  });

  it('refuses the same threshold twice', () => {
    const check = checkThresholds([
      { kind: 'credits', value: '500' },
      { kind: 'credits', value: '500' },
    ]);
    expect(check).toEqual({ ok: false, rowErrors: [null, null], formError: CREDIT_ALERT_MESSAGES.duplicate });
  });

  it('says a threshold in words', () => {
    expect(thresholdText({ kind: 'percent_of_last_topup', value: 10 })).toBe('10 % of the last top-up');
    expect(thresholdText({ kind: 'credits', value: 2500 })).toBe('2,500 credits');
  });
});
