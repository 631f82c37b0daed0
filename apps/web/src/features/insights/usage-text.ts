import type { CreditForecast } from '@allot/domain/insights';
import { formatCount, formatLongDay } from '../../lib/format';

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** "12.5 credits a day, mean of the last 28 days" (decision 014: the last 28 complete UTC days). */
export function burnRateText(forecast: CreditForecast): string {
  const mean = forecast.meanDailyConsumption;
  const figure = mean > 0 && mean < 0.1 ? 'Less than 0.1' : oneDecimal.format(mean);
  return `${figure} ${mean === 1 ? 'credit' : 'credits'} a day, mean of the last ${forecast.windowDays} days`;
}

/**
 * The forecast in words. The figure is every credit held in the subtree (its pools and its members'
 * balances, CONTRACT §10), not the shared pool alone: the sentence says so.
 */
export function forecastText(forecast: CreditForecast, organizationName: string): string {
  if (!(forecast.meanDailyConsumption > 0))
    return `Nothing consumed in the last ${forecast.windowDays} days.`;
  const held = `the ${formatCount(forecast.creditsAvailable)} ${
    forecast.creditsAvailable === 1 ? 'credit' : 'credits'
  } held in ${organizationName} and below`;
  if (forecast.runsOutOn === null) return `At this rate, ${held} do not run out in the next year.`;
  return `At this rate, ${held} run out on ${formatLongDay(forecast.runsOutOn)}.`;
}
