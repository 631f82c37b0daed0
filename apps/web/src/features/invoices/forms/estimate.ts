import {
  type InvoicePeriod,
  licenseAmount,
  monthsLeft,
  PERIOD_MONTHS,
  type PriceList,
} from '@allot/domain/invoices';
import type { LicenseType } from '@allot/domain/organizations';

/** What a licence invoice will cost with today's price list: the domain's formula, shown before the server computes it. */
export interface LicenceEstimate {
  seats: number;
  months: number;
  pricePerSeatMonth: number;
  hasFreeTier: boolean;
  amount: number;
}

export function priceOf(list: PriceList, type: LicenseType) {
  return list.licenses.find((p) => p.licenseType === type) ?? { pricePerSeatMonth: 0, hasFreeTier: false };
}

/** Seats × months × the price of a seat per month (decision 010). */
export function estimateLicence(
  list: PriceList,
  type: LicenseType,
  seats: number,
  months: number,
): LicenceEstimate {
  const price = priceOf(list, type);
  return {
    seats,
    months,
    pricePerSeatMonth: price.pricePerSeatMonth,
    hasFreeTier: price.hasFreeTier,
    amount: licenseAmount(seats, months, price.pricePerSeatMonth),
  };
}

/** A new licence or an extension pays its period. */
export const periodMonths = (period: InvoicePeriod) => PERIOD_MONTHS[period];

/** Added seats pay the whole months left on the licence (at least one); none once it has expired. */
export function monthsToExpiry(now: Date, expireAt: string): number | null {
  const until = new Date(expireAt);
  return until > now ? monthsLeft(now, until) : null;
}
