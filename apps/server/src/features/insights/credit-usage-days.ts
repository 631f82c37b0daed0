import type { CreditUsageDay } from '@allot/domain/insights';

/** `YYYY-MM-DD` plus `days` (negative: before), in UTC. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * One entry per UTC day from `today - count + 1` to `today`, the days the roll-up has no row for as zeros
 * (CONTRACT §10).
 */
export function usageDaySeries(
  today: string,
  count: number,
  found: readonly CreditUsageDay[],
): { from: string; to: string; days: CreditUsageDay[] } {
  const byDate = new Map(found.map((d) => [d.date, d]));
  const from = addDays(today, -(count - 1));
  const days = Array.from({ length: count }, (_, i) => {
    const date = addDays(from, i);
    return byDate.get(date) ?? { date, received: 0, handedDown: 0, consumed: 0 };
  });
  return { from, to: today, days };
}
