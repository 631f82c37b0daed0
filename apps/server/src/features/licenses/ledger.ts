import type { LicenseAction } from '@allot/domain/licenses';
import type { LicenseType } from '@allot/domain/organizations';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { RetryTransaction } from '../../db/transaction';

/**
 * The one way licences change (decision 009): each function writes the licence and its log entry in one
 * statement. The database refuses at commit a licence whose seats or expiry differ from its log (LI001).
 */

export interface LicenseEntry {
  action: LicenseAction;
  description: string;
  actorId: string | null;
}

export interface LicenseState {
  id: string;
  organizationId: string;
  licenseType: LicenseType;
  maxUsers: number;
  expireAt: string;
  /** The log entry the change wrote (an invoice names the one that applied its purchase). */
  eventId: string;
}

type StateRow = {
  id: string;
  organization_id: string;
  license_type: LicenseType;
  max_users: number;
  expire_at: string | Date;
  event_id: string;
};

const toState = (r: StateRow): LicenseState => ({
  id: r.id,
  organizationId: r.organization_id,
  licenseType: r.license_type,
  maxUsers: Number(r.max_users),
  expireAt: new Date(r.expire_at).toISOString(),
  eventId: r.event_id,
});

/** The log entry of the licence row(s) in `changed`: `seats` its change, `after` its seats after. */
const logged = (entry: LicenseEntry, seats: SQL, after: SQL = sql`max_users`) => sql`
  insert into license_events (organization_id, license_id, license_type, action, seats, max_users_after,
    expire_at_after, description, actor_id)
  select organization_id, id, license_type, ${entry.action}, ${seats}, ${after}, expire_at,
    ${entry.description}, ${entry.actorId}::uuid from changed returning id`;
const stateColumns = sql`id, organization_id, license_type, max_users, expire_at, (select id from entry limit 1) as event_id`;

/**
 * A new licence of `seats` seats; `sourceLicenseId` when its seats come from the licence above. Null when the
 * organization has a licence of the type already (one per type: another request may have just written it).
 */
export async function openLicense(
  tx: Tx,
  license: {
    organizationId: string;
    licenseType: LicenseType;
    expireAt: string;
    seats: number;
    sourceLicenseId?: string | null;
    metadata?: Record<string, unknown>;
  },
  entry: LicenseEntry,
): Promise<LicenseState | null> {
  const [row] = await rows<StateRow>(
    tx,
    sql`with changed as (
      insert into licenses (organization_id, license_type, expire_at, max_users, source_license_id, metadata)
      values (${license.organizationId}, ${license.licenseType}, ${license.expireAt}, ${license.seats},
        ${license.sourceLicenseId ?? null}, ${JSON.stringify(license.metadata ?? {})}::jsonb)
      on conflict (organization_id, license_type) do nothing
      returning *), entry as (${logged(entry, sql`${license.seats}::int`)})
    select ${stateColumns} from changed`,
  );
  return row ? toState(row) : null;
}

/** Adds `seats` (negative: takes them) and, when given, sets the expiry. */
export async function changeLicense(
  tx: Tx,
  licenseId: string,
  change: { seats: number; expireAt?: string | undefined },
  entry: LicenseEntry,
): Promise<LicenseState> {
  const [row] = await rows<StateRow>(
    tx,
    sql`with changed as (
      update licenses set max_users = max_users + ${change.seats}::int,
        expire_at = coalesce(${change.expireAt ?? null}::timestamptz, expire_at), updated_at = now()
      where id = ${licenseId} returning *), entry as (${logged(entry, sql`${change.seats}::int`)})
    select ${stateColumns} from changed`,
  );
  if (!row) throw new Error(`licence ${licenseId} was not found`);
  return toState(row);
}

/** Deletes a licence; its log closes with its seats going to zero. */
export async function closeLicense(tx: Tx, licenseId: string, entry: LicenseEntry): Promise<void> {
  await tx.execute(sql`with changed as (select * from licenses where id = ${licenseId}),
    entry as (${logged(entry, sql`-max_users`, sql`0`)})
    delete from licenses where id = ${licenseId}`);
}

/**
 * An organization being deleted gives its seats back to its parent (a licence of the type there gains them;
 * without one, the parent gets one with this expiry); a root's seats end with it. Every change logged.
 */
export async function returnLicensesToParent(
  tx: Tx,
  organization: { id: string; name: string; parentId: string | null },
  actorId: string | null,
): Promise<void> {
  // The parent's licences first, then the organization's: the upper licence before the lower ones, as every
  // seat move locks them (decision 009), so a delete and a move or an extension cannot wait for each other.
  const parents = organization.parentId
    ? await rows<{ id: string; license_type: LicenseType }>(
        tx,
        sql`select id, license_type from licenses where organization_id = ${organization.parentId}
            order by id for update`,
      )
    : [];
  const own = await rows<StateRow>(
    tx,
    sql`select id, organization_id, license_type, max_users, expire_at, null as event_id from licenses
        where organization_id = ${organization.id} order by id for update`,
  );
  const entry: LicenseEntry = {
    action: 'organization_deleted',
    description: `${organization.name} was deleted: its seats went back`,
    actorId,
  };
  for (const licence of own.map(toState)) {
    if (organization.parentId && licence.maxUsers > 0) {
      const parent = parents.find((p) => p.license_type === licence.licenseType);
      if (parent) await changeLicense(tx, parent.id, { seats: licence.maxUsers }, entry);
      else {
        const opened = await openLicense(
          tx,
          {
            organizationId: organization.parentId,
            licenseType: licence.licenseType,
            expireAt: licence.expireAt,
            seats: licence.maxUsers,
          },
          entry,
        );
        if (!opened) throw new RetryTransaction('a licence of the parent was written meanwhile');
      }
    }
    await closeLicense(tx, licence.id, { ...entry, description: `${organization.name} was deleted` });
  }
}

/** Licences whose seats came, directly or not, from this one, locked in id order: they follow its expiry. */
async function licencesHandedDownFrom(tx: Tx, id: string): Promise<string[]> {
  const below = await rows<{ id: string }>(
    tx,
    sql`with recursive below as (
        select id from licenses where source_license_id = ${id}
        union select l.id from licenses l join below b on l.source_license_id = b.id)
      select l.id from licenses l join below b on b.id = l.id order by l.id for update of l`,
  );
  return below.map((r) => r.id);
}

/**
 * A new expiry for a licence (its entry: `entry`) and for every licence handed down from it, at any depth
 * (`expiry_followed`). Answers the licence as it is now, with its entry's id.
 */
export async function changeExpiry(
  tx: Tx,
  licenseId: string,
  expireAt: string,
  entry: LicenseEntry,
): Promise<LicenseState> {
  const changed = await changeLicense(tx, licenseId, { seats: 0, expireAt }, entry);
  for (const below of await licencesHandedDownFrom(tx, licenseId)) {
    await changeLicense(
      tx,
      below,
      { seats: 0, expireAt },
      { action: 'expiry_followed', description: `Expires ${expireAt.slice(0, 10)}`, actorId: entry.actorId },
    );
  }
  return changed;
}
