import { APP_MSG, MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL } from '@allot/domain/organizations';
import {
  type BulkImportPreview,
  type BulkImportRequest,
  type BulkImportResponse,
  type CreateUserRequest,
  checkImportRows,
  type OrganizationUser,
} from '@allot/domain/users';
import type { Db, Tx } from '../../db/client';
import { writeTransaction } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../auth/sessions';
import type { MailSettings } from '../mail/public-links';
import { requireOrganizationAccess } from '../organizations/access';
import { lockOrganization } from '../organizations/locks';
import { applyMemberPlan, type MemberPlan, planMembers } from './add-members';
import { requireAssignable } from './member-guards';
import { findMembers } from './queries';
import { transferOwnership } from './role-service';

/**
 * POST /api/user/create: a new account (invited by mail) or one that had no organization left, made a
 * member with a licence seat when the organization has licences. Owner needs an owner (the old one becomes admin).
 */
export async function createUser(
  db: Db,
  user: AuthUser,
  input: CreateUserRequest,
  mail: MailSettings,
): Promise<OrganizationUser> {
  const access = await requireOrganizationAccess(db, user, input.organizationId, ['manage_users']);
  requireAssignable(access.role, input.role);
  const userId = await writeTransaction(db, async (tx) => {
    await lockOrganization(tx, input.organizationId);
    // An owner joins as admin and then takes the ownership over, so that there is never a second owner.
    const role = input.role === 'organization_owner' ? 'organization_admin' : input.role;
    const plan = await planMembers(
      tx,
      input.organizationId,
      [{ row: 1, email: input.email, name: input.name, role }],
      input.licenseId,
    );
    const refused = plan.skipped[0];
    if (refused?.reason === 'already_member' || refused?.reason === 'email_taken') {
      throw AppError.emailTaken();
    }
    if (refused?.reason === 'no_free_seat') {
      const named = plan.licenses.find((l) => l.id === input.licenseId);
      const message = named
        ? MSG.notEnoughLicenses(LICENSE_TYPE_LABEL[named.licenseType])
        : APP_MSG.noFreeSeat;
      throw new AppError(402, 'seat_limit', message);
    }
    const { userIds } = await applyMemberPlan(tx, input.organizationId, plan, mail);
    const [created] = userIds;
    // Lost to a concurrent request that registered the same email a moment earlier.
    if (!created) throw AppError.emailTaken();
    if (input.role === 'organization_owner') await transferOwnership(tx, input.organizationId, created);
    return created;
  });
  const [created] = await findMembers(db, input.organizationId, [userId]);
  if (!created) throw new Error('created user not found');
  return created;
}

/** The rows the file checks alone skip, then what the database decides for the rest. */
async function planImport(tx: Tx, input: BulkImportRequest): Promise<MemberPlan> {
  const checked = checkImportRows(input.users);
  const plan = await planMembers(tx, input.organizationId, checked.valid);
  return { ...plan, skipped: [...checked.skipped, ...plan.skipped].sort((a, b) => a.row - b.row) };
}

/** POST /api/user/bulk/preview: what POST /api/user/bulk would do now, by the same rules; nothing is written. */
export async function previewImport(
  db: Db,
  user: AuthUser,
  input: BulkImportRequest,
): Promise<BulkImportPreview> {
  await requireOrganizationAccess(db, user, input.organizationId, ['manage_users']);
  const plan = await writeTransaction(db, async (tx) => {
    await lockOrganization(tx, input.organizationId);
    return planImport(tx, input);
  });
  return {
    toAdd: plan.toAdd.map((m) => ({
      row: m.row,
      email: m.email,
      name: m.name,
      role: m.role as BulkImportPreview['toAdd'][number]['role'],
      licenseType: m.license?.licenseType ?? null,
    })),
    skipped: plan.skipped,
    seats: plan.seats,
  };
}

/**
 * POST /api/user/bulk (CONTRACT §6): adds every acceptable row in one transaction of a few set-based
 * statements, invitations queued. When the seats ran out part-way the rows added stay added and the
 * answer is `402` with the lists in `details`.
 */
export async function importUsers(
  db: Db,
  user: AuthUser,
  input: BulkImportRequest,
  mail: MailSettings,
): Promise<BulkImportResponse> {
  await requireOrganizationAccess(db, user, input.organizationId, ['manage_users']);
  const result = await writeTransaction(db, async (tx) => {
    await lockOrganization(tx, input.organizationId);
    const plan = await planImport(tx, input);
    const { userIds, lost } = await applyMemberPlan(tx, input.organizationId, plan, mail);
    const skipped = [...plan.skipped, ...lost].sort((a, b) => a.row - b.row);
    return { userIds, skipped, seats: plan.seats };
  });
  const answer: BulkImportResponse = {
    added: await findMembers(db, input.organizationId, result.userIds),
    skipped: result.skipped,
    seats: result.seats,
  };
  if (answer.skipped.some((s) => s.reason === 'no_free_seat')) {
    throw new AppError(402, 'seat_limit', MSG.bulkLicenceLimit, answer);
  }
  return answer;
}
