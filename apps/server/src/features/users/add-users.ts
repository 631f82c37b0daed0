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
import { isConcurrencyConflict } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { type RefusalAfterCommit, refuseAfterCommit } from '../../http/write-route';
import { hitRateLimit, rateLimitKey } from '../../lib/rate-limit';
import type { MailSettings } from '../mail';
import { lockOrganization, requireOrganizationAccess } from '../organization-access';
import { applyMemberPlan, type MemberPlan, planMembers } from './add-members';
import { requireAssignable } from './member-guards';
import { findMembers } from './queries';

/**
 * POST /api/user/create (CONTRACT §3, §6): an unknown address gets a new account, a member at once, invited
 * to set it up; an account that already exists is only invited and joins with the mailed code (the answer
 * shows what the caller typed, `status: pending`). Either way the licence seat is taken now. Owner needs an
 * owner (the owner before becomes an admin when the new one joins).
 */
export async function createUser(
  tx: Tx,
  user: AuthUser,
  input: CreateUserRequest,
  mail: MailSettings,
): Promise<OrganizationUser> {
  const access = await requireOrganizationAccess(tx, user, input.organizationId, ['manage_users']);
  requireAssignable(access.role, input.role);
  await lockOrganization(tx, input.organizationId);
  const plan = await planMembers(
    tx,
    input.organizationId,
    [{ row: 1, email: input.email, name: input.name, role: input.role }],
    { caller: user, preferredLicenseId: input.licenseId },
  );
  const refused = plan.skipped[0];
  if (refused?.reason === 'already_member' || refused?.reason === 'already_invited') {
    throw AppError.emailTaken();
  }
  if (refused?.reason === 'no_free_seat') {
    const named = plan.licenses.find((l) => l.id === input.licenseId);
    const message = named ? MSG.notEnoughLicenses(LICENSE_TYPE_LABEL[named.licenseType]) : APP_MSG.noFreeSeat;
    throw AppError.of('seat_limit', message);
  }
  const [created] = await applyMemberPlan(tx, input.organizationId, plan, { caller: user, mail });
  if (!created) throw new Error('the plan added nobody');
  // The answer is read in the same transaction (it was read just after it): it sees the new member.
  const [member] = await findMembers(tx, input.organizationId, [created]);
  if (!member) throw new Error('created user not found');
  return member;
}

/** Previews and imports one session may run in a window: a file of 20,000 rows is a heavy request. */
export const IMPORTS_PER_SESSION = 30;
const IMPORT_WINDOW_SECONDS = 10 * 60;

/**
 * Before a preview's or an import's transaction, on its own: the access, then one preview or import of the
 * session counted (past the allowance `429`, before any other work); the count stays when the call is refused.
 */
export async function countImport(db: Db, user: AuthUser, input: BulkImportRequest): Promise<void> {
  await requireOrganizationAccess(db, user, input.organizationId, ['manage_users']);
  const used = await hitRateLimit(db, rateLimitKey('import', user.sessionId), IMPORT_WINDOW_SECONDS);
  if (used > IMPORTS_PER_SESSION) throw AppError.of('rate_limited', APP_MSG.tooManyImports);
}

/** The rows the file checks alone skip, then what the database decides for the rest. */
async function planImport(tx: Tx, caller: AuthUser, input: BulkImportRequest): Promise<MemberPlan> {
  const checked = checkImportRows(input.users);
  const plan = await planMembers(tx, input.organizationId, checked.valid, { caller });
  return { ...plan, skipped: [...checked.skipped, ...plan.skipped].sort((a, b) => a.row - b.row) };
}

/**
 * POST /api/user/bulk/preview: what POST /api/user/bulk would do now, by the same rules; nothing is written.
 * After `countImport`.
 */
export async function previewImport(
  tx: Tx,
  user: AuthUser,
  input: BulkImportRequest,
): Promise<BulkImportPreview> {
  await lockOrganization(tx, input.organizationId);
  const plan = await planImport(tx, user, input);
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
 * An import's refusals keep their answer; a collision with concurrent changes is a 409 (error handler).
 * Anything else, from its count to its commit, is the spec's message for a failed import; the error handler
 * logs the cause.
 */
export async function asImportFailure<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError || isConcurrencyConflict(error)) throw error;
    throw AppError.of('internal', MSG.bulkImportFailed, undefined, { cause: error });
  }
}

/**
 * POST /api/user/bulk (CONTRACT §6): adds every acceptable row in one transaction of a few set-based
 * statements, invitations queued. After `countImport`, in `asImportFailure`. When the seats ran out part-way
 * the rows added stay added: the answer is `402` with the lists in `details`, once they are committed.
 */
export async function importUsers(
  tx: Tx,
  user: AuthUser,
  input: BulkImportRequest,
  mail: MailSettings,
): Promise<BulkImportResponse | RefusalAfterCommit> {
  await lockOrganization(tx, input.organizationId);
  const plan = await planImport(tx, user, input);
  const userIds = await applyMemberPlan(tx, input.organizationId, plan, { caller: user, mail });
  const answer: BulkImportResponse = {
    added: await findMembers(tx, input.organizationId, userIds),
    skipped: plan.skipped,
    seats: plan.seats,
  };
  if (answer.skipped.some((s) => s.reason === 'no_free_seat')) {
    return refuseAfterCommit(AppError.of('seat_limit', MSG.bulkLicenceLimit, answer));
  }
  return answer;
}
