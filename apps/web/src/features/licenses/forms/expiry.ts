import { LICENSE_EXPIRING_SOON_DAYS } from '@allot/domain/organizations';

export type ExpiryState = 'active' | 'soon' | 'expired';

export const EXPIRY_LABEL: Record<Exclude<ExpiryState, 'active'>, string> = {
  soon: 'Expires soon',
  expired: 'Expired',
};

/** Expired at or after its expiry; "soon" within 30 days of it (the days the server's reminders use). */
export function expiryState(expireAt: string, now: Date): ExpiryState {
  const left = new Date(expireAt).getTime() - now.getTime();
  if (left <= 0) return 'expired';
  return left <= LICENSE_EXPIRING_SOON_DAYS * 86_400_000 ? 'soon' : 'active';
}

/** The value of a date field for an expiry: its day in UTC ("2027-03-05"), the day the server stores. */
export function dateFieldValue(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/**
 * The expiry to send for a date field: unchanged, the licence's own instant (an edit of the seats alone
 * must not move it); otherwise the day's midnight UTC.
 */
export function expiryFromField(day: string, current?: string): string {
  if (current && dateFieldValue(current) === day) return current;
  return `${day}T00:00:00.000Z`;
}

/** A date field's value one year from `now`: the default expiry of a new licence. */
export function inOneYear(now: Date): string {
  const next = new Date(now.getTime());
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return dateFieldValue(next.toISOString());
}
