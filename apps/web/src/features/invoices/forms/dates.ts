const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/**
 * "Mar 5, 2026": an invoice's dates in the list, where the time of day says nothing and the columns are
 * many. The long form (lib/format.ts formatDateLong) is in the tooltip and on the invoice page.
 */
export function formatDay(iso: string): string {
  return day.format(new Date(iso));
}
