import type { License } from '@allot/domain/organizations';

/** What a licence dialog needs of a licence: its seats and expiry (`expired` as the server read it). */
export type SeatFigures = Pick<License, 'licenseType' | 'maxUsers' | 'usedSeats' | 'expireAt'> &
  Partial<Pick<License, 'expired'>>;

/** Expired when the server read it, or since (the dialog may stay open past the expiry). */
export function isExpired(licence: Pick<SeatFigures, 'expireAt' | 'expired'>, now = Date.now()): boolean {
  return licence.expired === true || Date.parse(licence.expireAt) <= now;
}

/** Seats nobody holds (members, pending invitations): what a reclaim may take, expired or not. */
export function unusedSeats(licence: Pick<License, 'maxUsers' | 'usedSeats'>): number {
  return Math.max(0, licence.maxUsers - licence.usedSeats);
}

/** Seats a licence can give now: those nobody holds, none once it has expired (decision 009). */
export function freeSeats(licence: SeatFigures, now = Date.now()): number {
  return isExpired(licence, now) ? 0 : unusedSeats(licence);
}
