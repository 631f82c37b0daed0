const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(value: number): string {
  return integer.format(value);
}

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** "Mar 5, 2026": a day where the time says nothing (an expiry, an invoice's dates); formatDateLong in full. */
export function formatDay(iso: string): string {
  return day.format(new Date(iso));
}

const shortDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'long' });

/** "Mar 5, 2026, 2:03 PM" in the browser's time zone: a date in a table. */
export function formatDateShort(iso: string): string {
  return shortDate.format(new Date(iso));
}

/** "Thursday, March 5, 2026 at 2:03:12 PM GMT+1": the same date in full, for a tooltip. */
export function formatDateLong(iso: string): string {
  return longDate.format(new Date(iso));
}

/** "+1,500" or "−1,500" (a true minus sign); zero has no sign. */
export function formatSigned(value: number): string {
  if (value === 0) return '0';
  return `${value > 0 ? '+' : '\u2212'}${integer.format(Math.abs(value))}`;
}

/** "1 user", "1,204 users": a count with its noun (or verb phrase, "seat is" / "seats are") in number. */
export function formatCountOf(count: number, one: string, many: string): string {
  return `${integer.format(count)} ${count === 1 ? one : many}`;
}

// Calendar days the server counts in UTC (`YYYY-MM-DD`: usage, forecasts, seat history), shown as that day in
// every time zone.
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
