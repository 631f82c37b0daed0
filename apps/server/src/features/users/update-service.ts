import { APP_MSG, MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL } from '@allot/domain/organizations';
import { hasPermissions, permissionsOf, ROLE_RANK } from '@allot/domain/roles';
import type {
  OrganizationUser,
  UpdateUserLicensesRequest,
  UpdateUserRequest,
  UserAccount,
} from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { writeTransaction } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import { isUuid } from '../../lib/ids';
import type { AuthUser } from '../auth/sessions';
import { queueInvitation } from '../auth/verification-service';
import { freeSeats, lockOrganizationSeats } from '../licenses/seats';
import type { MailSettings } from '../mail/public-links';
import { effectiveRole, requireOrganizationAccess } from '../organizations/access';
import { lockMembers, requireNotAbove } from './member-guards';
import { findMembers } from './queries';

/**
 * POST /api/user/{id}/update: name, email, locale of an account. The account may belong to several
 * organizations, so the caller must manage every one of them (manage_users, its role not below the member's):
 * otherwise one admin could take over an account another organization relies on. Anyone may edit themselves.
 * A changed email of an account that never finished its invitation gets the invitation again.
 */
export async function updateUser(
  db: Db,
  user: AuthUser,
  userId: string,
  input: UpdateUserRequest,
  mail: MailSettings,
): Promise<UserAccount> {
  if (!isUuid(userId)) throw AppError.notFound();
  const [target] = await rows<{ email: string; is_system_admin: boolean; pending: boolean }>(
    db,
    sql`select email, is_system_admin, (email_verified_at is null) as pending from users where id = ${userId}`,
  );
  if (!target) throw AppError.notFound();
  if (userId !== user.userId && !user.isSystemAdmin) {
    const memberships = await rows<{
      organization_id: string;
      role: 'organization_owner' | 'organization_admin' | 'user';
    }>(db, sql`select organization_id, role from memberships where user_id = ${userId}`);
    const allowed = await Promise.all(
      memberships.map(async (m) => {
        const role = await effectiveRole(db, user, m.organization_id);
        if (role === null || role === 'user') return 'hidden';
        const managed =
          hasPermissions(['manage_users'], { role, permissions: permissionsOf(role) }) &&
          ROLE_RANK[m.role] >= ROLE_RANK[role];
        return managed ? 'managed' : 'visible';
      }),
    );
    if (!allowed.includes('managed') && !allowed.includes('visible')) throw AppError.notFound();
    if (target.is_system_admin || allowed.some((a) => a !== 'managed')) {
      throw AppError.forbidden(APP_MSG.strongerMember);
    }
  }
  const emailChanged = input.email.toLowerCase() !== target.email.toLowerCase();
  const updated = await writeTransaction(db, async (tx) => {
    if (emailChanged) {
      const taken = await rows(
        tx,
        sql`select 1 from users where lower(email) = ${input.email.toLowerCase()} and id <> ${userId}`,
      );
      if (taken.length > 0) throw AppError.emailTaken();
    }
    const [row] = await rows<UserAccount>(
      tx,
      sql`update users set name = ${input.name}, email = ${input.email}, locale = ${input.locale}, updated_at = now()
          where id = ${userId} returning id, name, email, locale`,
    );
    if (!row) throw AppError.notFound();
    if (emailChanged && target.pending) {
      const [first] = await rows<{ organization_id: string }>(
        tx,
        sql`select organization_id from memberships where user_id = ${userId} order by created_at limit 1`,
      );
      await queueInvitation(tx, { userId, organizationId: first?.organization_id }, mail);
    }
    return row;
  });
  return updated;
}

/**
 * POST /api/user/update/licenses (CONTRACT §6): moves these members onto one licence of the organization.
 * Members already on it keep their seat; the others need free seats of it, else `422` and nothing moves.
 */
export async function updateUserLicenses(
  db: Db,
  user: AuthUser,
  input: UpdateUserLicensesRequest,
): Promise<OrganizationUser[]> {
  const access = await requireOrganizationAccess(db, user, input.organizationId, ['manage_users']);
  const userIds = [...new Set(input.userIds)];
  await writeTransaction(db, async (tx) => {
    const licenses = await lockOrganizationSeats(tx, input.organizationId);
    const license = licenses.find((l) => l.id === input.licenseId);
    if (!license) throw AppError.invalid({ licenseId: APP_MSG.unknownLicense }, APP_MSG.unknownLicense);
    const members = await lockMembers(tx, input.organizationId, userIds);
    requireNotAbove(access.role, members);
    const moving = members.filter((m) => m.licenseId !== license.id);
    if (moving.length > freeSeats(license)) {
      throw new AppError(
        422,
        'business_rule',
        MSG.notEnoughLicenses(LICENSE_TYPE_LABEL[license.licenseType]),
      );
    }
    if (moving.length === 0) return;
    await tx.execute(sql`update memberships set license_id = ${license.id}, updated_at = now()
      where organization_id = ${input.organizationId}
        and user_id in ${uuidsIn(moving.map((m) => m.userId))}`);
  });
  return findMembers(db, input.organizationId, userIds);
}
