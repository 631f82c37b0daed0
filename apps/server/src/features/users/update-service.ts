import { APP_MSG, MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL } from '@allot/domain/organizations';
import { hasPermissions, permissionsOf, ROLE_RANK } from '@allot/domain/roles';
import type {
  MemberRole,
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
import { freeSeats, lockOrganizationSeats } from '../licenses/seats';
import type { MailSettings } from '../mail/public-links';
import { effectiveRole, requireOrganizationAccess } from '../organizations/access';
import { pendingEmailOf, requestEmailChange } from './email-change-service';
import { lockMembers, requireNotAbove } from './member-guards';
import { findMembers } from './queries';

/**
 * What the caller may change of another account, decided over every organization the account is a member
 * of (an account may belong to several, and one admin must not take over an account another organization
 * relies on): its name and locale where the caller manages all of them (manage_users, its role not below the
 * member's); its email only where the caller outranks it in all of them (CONTRACT §3), since an email
 * decides who receives the account's reset codes. `404` when the caller sees none of them.
 */
async function requireAccountChange(db: Db, user: AuthUser, userId: string, changesEmail: boolean) {
  const [target] = await rows<{ is_system_admin: boolean }>(
    db,
    sql`select is_system_admin from users where id = ${userId}`,
  );
  if (!target) throw AppError.notFound();
  if (userId === user.userId || user.isSystemAdmin) return;
  const memberships = await rows<{ organization_id: string; role: MemberRole }>(
    db,
    sql`select organization_id, role from memberships where user_id = ${userId}`,
  );
  const standing = await Promise.all(
    memberships.map(async (m) => {
      const role = await effectiveRole(db, user, m.organization_id);
      if (role === null || role === 'user') return null;
      const manages = hasPermissions(['manage_users'], { role, permissions: permissionsOf(role) });
      return {
        manages: manages && ROLE_RANK[m.role] >= ROLE_RANK[role],
        outranks: manages && ROLE_RANK[m.role] > ROLE_RANK[role],
      };
    }),
  );
  if (standing.length === 0 || standing.every((s) => s === null)) throw AppError.notFound();
  if (target.is_system_admin || !standing.every((s) => s?.manages)) {
    throw AppError.forbidden(APP_MSG.strongerMember);
  }
  if (changesEmail && !standing.every((s) => s?.outranks)) {
    throw AppError.forbidden(APP_MSG.emailChangeNotAllowed);
  }
}

/**
 * POST /api/user/{id}/update: name and locale change at once; a new email only asks for the change
 * (a code to the new address, a notice to the old one: `pendingEmail` until the code is entered). A new
 * spelling of the same address (its case) is no change of address and applies at once.
 */
export async function updateUser(
  db: Db,
  user: AuthUser,
  userId: string,
  input: UpdateUserRequest,
  mail: MailSettings,
): Promise<UserAccount> {
  if (!isUuid(userId)) throw AppError.notFound();
  const [current] = await rows<{ email: string }>(db, sql`select email from users where id = ${userId}`);
  if (!current) throw AppError.notFound();
  const newAddress = input.email.toLowerCase() !== current.email.toLowerCase();
  await requireAccountChange(db, user, userId, newAddress);
  return writeTransaction(db, async (tx) => {
    const [row] = await rows<{ id: string; name: string; email: string; locale: string }>(
      tx,
      sql`update users set name = ${input.name}, locale = ${input.locale},
            email = ${newAddress ? sql`email` : sql`${input.email}`}, updated_at = now()
          where id = ${userId} returning id, name, email, locale`,
    );
    if (!row) throw AppError.notFound();
    if (newAddress) {
      await requestEmailChange(
        tx,
        { userId, name: row.name, currentEmail: row.email, newEmail: input.email, requestedBy: user },
        mail,
      );
    }
    return { ...row, pendingEmail: await pendingEmailOf(tx, userId) };
  });
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
