import {
  type AssignLicensesRequest,
  LICENSE_MSG,
  type LicenseMoveResponse,
  type ReclaimLicensesRequest,
} from '@allot/domain/licenses';
import { MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL, type LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { RetryTransaction } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { type AuditRecord, recordAudit } from '../audit';
import { organizationsActedOn, organizationsBelow } from '../organization-access';
import { changeLicense, openLicense } from './ledger';
import { usedSeatsSql } from './queries';
import { countSeatsInUse, freeSeats, type SeatLicense } from './seats';

/**
 * Seats handed down to sub-organizations and reclaimed from them (spec §7, CONTRACT §7): free seats move,
 * seats in use never do; each type is one step of the same transaction, logged on both sides.
 */

interface Named {
  id: string;
  name: string;
}

interface HeldLicense extends SeatLicense {
  organizationId: string;
  expireAt: string;
}

const label = (type: LicenseType) => LICENSE_TYPE_LABEL[type];

/** Items of amount 0 are ignored; a type named twice adds up. */
function itemsOf(items: readonly { type: LicenseType; amount: number }[]): [LicenseType, number][] {
  const byType = new Map<LicenseType, number>();
  for (const { type, amount } of items) if (amount > 0) byType.set(type, (byType.get(type) ?? 0) + amount);
  return [...byType];
}

/**
 * Holds the organizations of a move against their deletion, root first (locks.ts): `key share` waits for a
 * delete under way and makes a delete wait for the move. `404` when one was deleted meanwhile: seats handed
 * to an organization that is gone would be lost with it.
 */
async function holdOrganizations(tx: Tx, upperId: string, lowerIds: readonly string[]) {
  const ids = [upperId, ...lowerIds];
  const held = await rows<{ id: string }>(
    tx,
    sql`select o.id from organization_closure c join organizations o on o.id = c.descendant_id
        where c.ancestor_id = ${upperId} and o.id in ${uuidsIn(ids)} and o.deleted_at is null
        order by c.depth, o.id for key share of o`,
  );
  if (held.length !== ids.length) throw AppError.notFound();
}

/**
 * The licences of one type of these organizations, locked in id order, with their seats in use counted
 * after the lock is held (`countSeatsInUse`: a member created meanwhile holds its seat in the count).
 */
async function lockLicenses(tx: Tx, organizationIds: readonly string[], type: LicenseType) {
  const found = await rows<{
    id: string;
    organization_id: string;
    max_users: number;
    expire_at: Date;
    expired: boolean;
  }>(
    tx,
    sql`select l.id, l.organization_id, l.max_users, l.expire_at, l.expire_at <= now() as expired
      from licenses l where l.organization_id in ${uuidsIn([...organizationIds])} and l.license_type = ${type}
      order by l.id for update of l`,
  );
  const used = await countSeatsInUse(
    tx,
    found.map((l) => l.id),
  );
  return new Map(
    found.map((l): [string, HeldLicense] => [
      l.organization_id,
      {
        id: l.id,
        organizationId: l.organization_id,
        licenseType: type,
        maxUsers: Number(l.max_users),
        usedSeats: used.get(l.id) ?? 0,
        expired: l.expired,
        expireAt: new Date(l.expire_at).toISOString(),
      },
    ]),
  );
}

const names = (orgs: readonly Named[]) => orgs.map((o) => o.name).join(', ');

/** One `licence_seats_moved` entry per organization whose licence of the type moved, with its seats (decision 014). */
function seatsMoved(
  actorId: string,
  type: LicenseType,
  description: string,
  moves: readonly { organizationId: string; licenseId: string; before: number | null; after: number }[],
): AuditRecord[] {
  return moves.map((m) => ({
    organizationId: m.organizationId,
    actorId,
    action: 'licence_seats_moved',
    target: { type: 'licence', id: m.licenseId, label: `${label(type)}: ${description}` },
    before: m.before === null ? null : { maxUsers: m.before },
    after: { maxUsers: m.after },
  }));
}

async function answer(tx: Tx, licenseIds: readonly string[]): Promise<LicenseMoveResponse> {
  const found = await rows<{
    id: string;
    organization_id: string;
    name: string;
    license_type: LicenseType;
    max_users: number;
    used: string;
  }>(
    tx,
    sql`select l.id, l.organization_id, o.name, l.license_type, l.max_users, ${usedSeatsSql} as used
      from licenses l join organizations o on o.id = l.organization_id
      where l.id in ${uuidsIn([...new Set(licenseIds)])} order by o.name, l.license_type`,
  );
  return {
    licenses: found.map((l) => ({
      id: l.id,
      organizationId: l.organization_id,
      organizationName: l.name,
      licenseType: l.license_type,
      maxUsers: Number(l.max_users),
      usedSeats: Number(l.used),
    })),
  };
}

/** POST /api/license/assign/organizations: `amount` seats of each type to each target below the source. */
export async function assignLicenses(
  tx: Tx,
  user: AuthUser,
  input: AssignLicensesRequest,
): Promise<LicenseMoveResponse> {
  const [source] = await organizationsActedOn<Named>(
    tx,
    user,
    [input.sourceOrganizationId],
    'manage_org_license',
  );
  if (!source) throw AppError.notFound();
  const targets = await organizationsBelow<Named>(
    tx,
    user,
    source.id,
    input.targetOrganizationIds,
    LICENSE_MSG.notBelow(source.name),
  );
  await holdOrganizations(
    tx,
    source.id,
    targets.map((t) => t.id),
  );
  const changed: string[] = [];
  const audit: AuditRecord[] = [];
  for (const [type, amount] of itemsOf(input.licenses)) {
    // The upper licence first, then the lower ones in id order: the lock order of every seat move.
    const from = (await lockLicenses(tx, [source.id], type)).get(source.id);
    if (!from) throw AppError.of('business_rule', MSG.sourceMissing(label(type)));
    const needed = amount * targets.length;
    if (freeSeats(from) < needed) throw AppError.of('business_rule', MSG.notEnoughLicenses(label(type)));
    const held = await lockLicenses(
      tx,
      targets.map((t) => t.id),
      type,
    );
    const received = {
      action: 'received' as const,
      description: `From ${source.name}`,
      actorId: user.userId,
    };
    const moved: Parameters<typeof seatsMoved>[3][number][] = [
      { organizationId: source.id, licenseId: from.id, before: from.maxUsers, after: from.maxUsers - needed },
    ];
    for (const target of targets) {
      const existing = held.get(target.id);
      if (existing) {
        await changeLicense(tx, existing.id, { seats: amount }, received);
        changed.push(existing.id);
        moved.push({
          organizationId: target.id,
          licenseId: existing.id,
          before: existing.maxUsers,
          after: existing.maxUsers + amount,
        });
        continue;
      }
      const opened = await openLicense(
        tx,
        {
          organizationId: target.id,
          licenseType: type,
          expireAt: from.expireAt,
          seats: amount,
          sourceLicenseId: from.id,
        },
        received,
      );
      if (!opened) throw new RetryTransaction(`a ${type} licence of ${target.id} was written meanwhile`);
      changed.push(opened.id);
      moved.push({ organizationId: target.id, licenseId: opened.id, before: null, after: amount });
    }
    audit.push(
      ...seatsMoved(user.userId, type, `${amount} each from ${source.name} to ${names(targets)}`, moved),
    );
    await changeLicense(
      tx,
      from.id,
      { seats: -needed },
      { action: 'handed_down', description: `To ${names(targets)} (${amount} each)`, actorId: user.userId },
    );
    changed.push(from.id);
  }
  await recordAudit(tx, audit);
  return answer(tx, changed);
}

/** POST /api/license/reclaim/organizations: `amount` free seats of each type from each source below the target. */
export async function reclaimLicenses(
  tx: Tx,
  user: AuthUser,
  input: ReclaimLicensesRequest,
): Promise<LicenseMoveResponse> {
  const [target] = await organizationsActedOn<Named>(
    tx,
    user,
    [input.targetOrganizationId],
    'manage_org_license',
  );
  if (!target) throw AppError.notFound();
  const sources = await organizationsBelow<Named>(
    tx,
    user,
    target.id,
    input.sourceOrganizationIds,
    LICENSE_MSG.notBelow(target.name),
  );
  await holdOrganizations(
    tx,
    target.id,
    sources.map((s) => s.id),
  );
  const changed: string[] = [];
  const audit: AuditRecord[] = [];
  for (const [type, amount] of itemsOf(input.licenses)) {
    const into = (await lockLicenses(tx, [target.id], type)).get(target.id);
    if (!into) throw AppError.of('business_rule', MSG.targetMissing(label(type)));
    const held = await lockLicenses(
      tx,
      sources.map((s) => s.id),
      type,
    );
    for (const source of sources) {
      const licence = held.get(source.id);
      if (!licence) throw AppError.of('business_rule', MSG.sourceMissing(label(type)));
      // Seats in use stay; an expired licence still gives back the seats nobody holds.
      if (freeSeats({ ...licence, expired: false }) < amount) {
        throw AppError.of('business_rule', MSG.notEnoughLicenses(label(type)));
      }
    }
    for (const source of sources) {
      const licence = held.get(source.id) as HeldLicense;
      await changeLicense(
        tx,
        licence.id,
        { seats: -amount },
        { action: 'given_back', description: `To ${target.name}`, actorId: user.userId },
      );
      changed.push(licence.id);
    }
    await changeLicense(
      tx,
      into.id,
      { seats: amount * sources.length },
      { action: 'reclaimed', description: `From ${names(sources)} (${amount} each)`, actorId: user.userId },
    );
    changed.push(into.id);
    const total = amount * sources.length;
    audit.push(
      ...seatsMoved(user.userId, type, `${amount} each from ${names(sources)} to ${target.name}`, [
        {
          organizationId: target.id,
          licenseId: into.id,
          before: into.maxUsers,
          after: into.maxUsers + total,
        },
        ...sources.map((source) => {
          const licence = held.get(source.id) as HeldLicense;
          return {
            organizationId: source.id,
            licenseId: licence.id,
            before: licence.maxUsers,
            after: licence.maxUsers - amount,
          };
        }),
      ]),
    );
  }
  await recordAudit(tx, audit);
  return answer(tx, changed);
}
