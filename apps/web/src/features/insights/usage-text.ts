import type { CreditForecast } from '@allot/domain/insights';
import { formatCount } from '../../lib/format';

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const longDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'UTC' });
const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const mediumDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** A `YYYY-MM-DD` day in a format; anything else (a chart may pass its own values) as it is. */
function formatIn(format: Intl.DateTimeFormat, day: unknown): string {
  const text = String(day ?? '');
  const date = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(date.getTime()) ? format.format(date) : text;
}

/** "Tuesday, March 2, 2027": a forecast's day (a UTC calendar day, shown as that day everywhere). */
export const formatLongDay = (day: string) => formatIn(longDay, day);
/** "Mar 2": a chart's axis. */
export const formatShortDay = (day: unknown) => formatIn(shortDay, day);
/** "Mar 2, 2027": a table's row, a tooltip's title. */
export const formatMediumDay = (day: unknown) => formatIn(mediumDay, day);

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
