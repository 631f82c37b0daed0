import { describe, expect, it } from 'vitest';
import { burnRateText, forecastText } from './usage-text';

const forecast = {
  runsOutOn: '2027-03-02',
  windowDays: 28,
  meanDailyConsumption: 12.5,
  creditsAvailable: 4_800,
};

describe('credit use in words', () => {
  it('says what runs out, and when, as a long day', () => {
    expect(forecastText(forecast, 'Riverside District')).toBe(
      'At this rate, the 4,800 credits held in Riverside District and below run out on Tuesday, March 2, 2027.',
    );
  });

  it('says when they last more than a year', () => {
    expect(forecastText({ ...forecast, runsOutOn: null }, 'Maple')).toBe(
      'At this rate, the 4,800 credits held in Maple and below do not run out in the next year.',
    );
  });

  it('says when nothing was consumed in the window', () => {
    expect(forecastText({ ...forecast, runsOutOn: null, meanDailyConsumption: 0 }, 'Maple')).toBe(
      'Nothing consumed in the last 28 days.',
    );
  });

  it('gives the mean with one decimal at most', () => {
    expect(burnRateText(forecast)).toBe('12.5 credits a day, mean of the last 28 days');
    expect(burnRateText({ ...forecast, meanDailyConsumption: 1 })).toBe(
      '1 credit a day, mean of the last 28 days',
    );
    expect(burnRateText({ ...forecast, meanDailyConsumption: 0.02 })).toBe(
      'Less than 0.1 credits a day, mean of the last 28 days',
    );
  });
});
