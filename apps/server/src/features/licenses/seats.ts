import { APP_MSG } from '@allot/domain/messages';
import { LICENSE_TYPES, type LicenseType } from '@allot/domain/organizations';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { usedSeatsSql } from './queries';

/** A `licenseId` that names no licence of the organization: an unknown id is a `404` (CONTRACT §1). */
export const unknownLicense = () =>
  AppError.of('not_found', APP_MSG.unknownLicense, { fields: { licenseId: APP_MSG.unknownLicense } });

export interface SeatLicense {
  id: string;
  licenseType: LicenseType;
  maxUsers: number;
  usedSeats: number;
  /** Past its expiry: it gives no seats (its holders keep theirs, without entitlement). */
  expired: boolean;
}

/**
 * Who holds the seats of an organization's licences, as a relation (`license_id`): its members, and the
 * accounts invited to it, whose seat is held until they accept or the invitation is cancelled.
 */
export function seatHolders(organizationId: SQL): SQL {
  return sql`(select license_id from memberships where organization_id = ${organizationId}
    union all
    select license_id from membership_invitations where organization_id = ${organizationId})`;
}

/**
 * The seats in use of these licences, counted by a statement of its own: call it once their rows are locked.
 * Under READ COMMITTED a statement sees what was committed when it began, so a count taken in the statement
 * that waits for `FOR UPDATE` misses the seat that the transaction it waited for took (issue 30). Every
 * change of seat holders locks its licence first, so this count, begun after the lock, sees them all.
 */
export async function countSeatsInUse(tx: Tx, licenseIds: readonly string[]): Promise<Map<string, number>> {
  if (licenseIds.length === 0) return new Map();
  const used = await rows<{ id: string; used: string | number }>(
    tx,
    sql`select l.id, ${usedSeatsSql} as used from licenses l where l.id in ${uuidsIn([...licenseIds])}`,
  );
  return new Map(used.map((u) => [u.id, Number(u.used)]));
}

/**
 * The organization's licences with their seats in use, locked until the transaction ends: every change of
 * seats in one organization takes these locks first, so two imports cannot both count the same free seat.
 * The count is a second statement, after the lock (`countSeatsInUse`). In the order seats are handed out:
 * the types' order of CONTRACT §7.
 */
export async function lockOrganizationSeats(tx: Tx, organizationId: string): Promise<SeatLicense[]> {
  const locked = await rows<{ id: string; license_type: LicenseType; max_users: number; expired: boolean }>(
    tx,
    sql`select id, license_type, max_users, expire_at <= now() as expired from licenses
        where organization_id = ${organizationId} order by id for update`,
  );
  if (locked.length === 0) return [];
  const used = await rows<{ license_id: string; used: string | number }>(
    tx,
    sql`select license_id, count(*) as used from ${seatHolders(sql`${organizationId}::uuid`)} h
        where license_id is not null group by license_id`,
  );
  const usedBy = new Map(used.map((u) => [u.license_id, Number(u.used)]));
  return locked
    .map((l) => ({
      id: l.id,
      licenseType: l.license_type,
      maxUsers: Number(l.max_users),
      usedSeats: usedBy.get(l.id) ?? 0,
      expired: l.expired,
    }))
    .sort((a, b) => LICENSE_TYPES.indexOf(a.licenseType) - LICENSE_TYPES.indexOf(b.licenseType));
}

/** Seats nobody holds; none on an expired licence. */
export const freeSeats = (license: SeatLicense) =>
  license.expired ? 0 : Math.max(license.maxUsers - license.usedSeats, 0);

/**
 * Seats for `count` new members (CONTRACT §6): of the preferred licence when one is named, else of the
 * first licence type with a free seat, then the next. Returns one licence per member, in order, as far as
 * seats go; an organization without licences gives every member no seat (null) and no limit.
 */
export function allocateSeats(
  licenses: readonly SeatLicense[],
  count: number,
  preferredLicenseId?: string,
): (SeatLicense | null)[] {
  if (licenses.length === 0) return Array.from({ length: count }, () => null);
  const pool = preferredLicenseId ? licenses.filter((l) => l.id === preferredLicenseId) : licenses;
  const seats: SeatLicense[] = [];
  for (const license of pool) {
    const take = Math.min(freeSeats(license), count - seats.length);
    for (let i = 0; i < take; i++) seats.push(license);
  }
  return seats;
}

/**
 * The licence types of which an organization has at least one free seat now (a live licence with seats nobody
 * holds): what requests up the tree show the organizations below (decision 017). Not locked: a hint, not a hold.
 */
export async function freeSeatTypesOf(db: Tx, organizationId: string): Promise<Set<LicenseType>> {
  const found = await rows<{ license_type: LicenseType }>(
    db,
    sql`select l.license_type from licenses l
      where l.organization_id = ${organizationId} and l.expire_at > now() and l.max_users > ${usedSeatsSql}`,
  );
  return new Set(found.map((l) => l.license_type));
}
