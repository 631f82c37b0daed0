import { type CreateLicenseRequest, LICENSE_MSG, type UpdateLicenseRequest } from '@allot/domain/licenses';
import { LICENSE_TYPE_LABEL, type License } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { changedFields, recordAudit } from '../audit';
import { requireSystemAdmin } from '../organization-access';
import { changeExpiry, changeLicense, closeLicense, type LicenseEntry, openLicense } from './ledger';
import { type LicenseRow, licenseColumns, licenseSourceJoins, toLicense } from './queries';

/** Licence create, update and delete (spec §5: system admins only; CONTRACT §7). */

/** System admins only: `404` for an organization the caller cannot see, `403` for one it can. */
const requireLicenceAdmin = (tx: Tx, user: AuthUser, organizationId: string) =>
  requireSystemAdmin(tx, user, { organizationId, message: LICENSE_MSG.systemAdminOnly });

const day = (iso: string) => iso.slice(0, 10);

/**
 * One licence, locked for the rest of the transaction, with its seats in use and those handed down read by
 * a second statement once the lock is held: a count in the locking statement would be from before the wait,
 * blind to the seat a member created meanwhile took (issue 30; seats.ts `countSeatsInUse`). Its
 * organization first, shared (locks.ts: organization rows before licence rows): it is not deleted meanwhile,
 * and a member change under way there ends before the licence is locked.
 */
async function lockLicense(tx: Tx, id: string): Promise<License> {
  if (!isUuid(id)) throw AppError.notFound();
  const [org] = await rows<{ id: string }>(
    tx,
    sql`select o.id from licenses l join organizations o on o.id = l.organization_id
        where l.id = ${id} and o.deleted_at is null for share of o`,
  );
  const [locked] = org
    ? await rows<{ id: string }>(
        tx,
        sql`select id from licenses where id = ${id} and organization_id = ${org.id} for update`,
      )
    : [];
  if (!locked) throw AppError.notFound();
  return readLicense(tx, id);
}

export async function readLicense(tx: Tx, id: string): Promise<License> {
  const [row] = await rows<LicenseRow>(
    tx,
    sql`select ${licenseColumns} from licenses l ${licenseSourceJoins} where l.id = ${id}`,
  );
  if (!row) throw AppError.notFound();
  return toLicense(row);
}

export async function createLicense(tx: Tx, user: AuthUser, input: CreateLicenseRequest): Promise<License> {
  const expireAt = new Date(input.expireAt).toISOString();
  if (!isUuid(input.organizationId)) throw AppError.notFound();
  await requireLicenceAdmin(tx, user, input.organizationId);
  // Shared: the organization cannot be deleted while its licence is written.
  const [org] = await rows<{ id: string }>(
    tx,
    sql`select id from organizations where id = ${input.organizationId} and deleted_at is null for share`,
  );
  if (!org) throw AppError.notFound();
  const opened = await openLicense(
    tx,
    {
      organizationId: org.id,
      licenseType: input.licenseType,
      expireAt,
      seats: input.maxUsers,
      ...(input.metadata ? { metadata: input.metadata } : {}),
    },
    {
      action: 'created',
      description: `${LICENSE_TYPE_LABEL[input.licenseType]}: ${input.maxUsers} seats until ${day(expireAt)}`,
      actorId: user.userId,
    },
  );
  if (!opened) throw AppError.of('conflict', LICENSE_MSG.duplicate(input.licenseType));
  await recordAudit(tx, {
    organizationId: org.id,
    actorId: user.userId,
    action: 'licence_created',
    target: { type: 'licence', id: opened.id, label: LICENSE_TYPE_LABEL[input.licenseType] },
    after: { licenseType: input.licenseType, maxUsers: input.maxUsers, expireAt },
  });
  return readLicense(tx, opened.id);
}

export async function updateLicense(
  tx: Tx,
  user: AuthUser,
  id: string,
  input: UpdateLicenseRequest,
): Promise<License> {
  if (input.licenseId && input.licenseId.toLowerCase() !== id.toLowerCase()) {
    throw AppError.invalid({ licenseId: LICENSE_MSG.otherLicense }, LICENSE_MSG.otherLicense);
  }
  const expireAt = new Date(input.expireAt).toISOString();
  const licence = await lockLicense(tx, id);
  await requireLicenceAdmin(tx, user, licence.organizationId);
  if (input.licenseType && input.licenseType !== licence.licenseType) {
    throw AppError.of('business_rule', LICENSE_MSG.typeFixed);
  }
  if (input.maxUsers < licence.usedSeats)
    throw AppError.of('business_rule', LICENSE_MSG.belowUsed(licence.usedSeats));
  const seats = input.maxUsers - licence.maxUsers;
  const extended = expireAt !== licence.expireAt;
  const entry = (action: LicenseEntry['action'], description: string): LicenseEntry => ({
    action,
    description,
    actorId: user.userId,
  });
  if (seats !== 0) {
    await changeLicense(
      tx,
      licence.id,
      { seats },
      entry('seats_changed', `${licence.maxUsers} → ${input.maxUsers} seats`),
    );
  }
  if (extended) {
    await changeExpiry(
      tx,
      licence.id,
      expireAt,
      entry('expiry_changed', `Expires ${day(expireAt)} (was ${day(licence.expireAt)})`),
    );
  }
  if (input.metadata) {
    await tx.execute(sql`update licenses set metadata = ${JSON.stringify(input.metadata)}::jsonb, updated_at = now()
      where id = ${licence.id}`);
  }
  const change = changedFields(
    {
      maxUsers: licence.maxUsers,
      expireAt: licence.expireAt,
      ...(input.metadata ? { metadata: licence.metadata } : {}),
    },
    { maxUsers: input.maxUsers, expireAt, ...(input.metadata ? { metadata: input.metadata } : {}) },
  );
  if (change) {
    await recordAudit(tx, {
      organizationId: licence.organizationId,
      actorId: user.userId,
      action: 'licence_updated',
      target: { type: 'licence', id: licence.id, label: LICENSE_TYPE_LABEL[licence.licenseType] },
      ...change,
    });
  }
  return readLicense(tx, licence.id);
}

export async function deleteLicense(tx: Tx, user: AuthUser, id: string): Promise<{ success: boolean }> {
  const licence = await lockLicense(tx, id);
  await requireLicenceAdmin(tx, user, licence.organizationId);
  if (licence.usedSeats > 0) throw AppError.of('conflict', LICENSE_MSG.inUse);
  if (licence.handedDown > 0) throw AppError.of('conflict', LICENSE_MSG.handedDown);
  await closeLicense(tx, licence.id, {
    action: 'deleted',
    description: `${LICENSE_TYPE_LABEL[licence.licenseType]}: ${licence.maxUsers} seats`,
    actorId: user.userId,
  });
  await recordAudit(tx, {
    organizationId: licence.organizationId,
    actorId: user.userId,
    action: 'licence_deleted',
    target: { type: 'licence', id: licence.id, label: LICENSE_TYPE_LABEL[licence.licenseType] },
    before: { licenseType: licence.licenseType, maxUsers: licence.maxUsers, expireAt: licence.expireAt },
  });
  return { success: true };
}
