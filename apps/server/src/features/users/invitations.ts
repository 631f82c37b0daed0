import { type AcceptInvitationRequest, CODE_MINUTES, type ResendInvitationRequest } from '@allot/domain/auth';
import { APP_MSG } from '@allot/domain/messages';
import { ROLE_LABEL, type Role } from '@allot/domain/roles';
import type { MemberRole } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { isUuid } from '../../lib/ids';
import { hitRateLimit, rateLimitKey } from '../../lib/rate-limit';
import {
  accountByEmail,
  type CheckedCode,
  checkCode,
  endSessionsWithoutRequiredMfa,
  issueCodes,
  markVerified,
  mayRequestMail,
  membershipInvitationMail,
  redeemCode,
  withoutPanelAccess,
} from '../auth';
import { lockOrganizationSeats } from '../licenses';
import { type MailSettings, publicLink, queueMails } from '../mail';
import { lockOrganization } from '../organization-access';
import { transferOwnership } from './change-roles';

const PURPOSE = 'membership_invitation';
const DAY_SECONDS = 24 * 60 * 60;

/** Invitations one organization may send in a day unless configured otherwise (INVITATIONS_PER_DAY). */
export const DEFAULT_INVITATIONS_PER_DAY = 5_000;

/**
 * Counts `count` invitation mails against the organization's daily allowance, in the caller's transaction:
 * a refused or failed change gives them back with its rollback. Over the allowance: `429`, nothing written.
 */
export async function countInvitations(
  tx: Tx,
  organizationId: string,
  count: number,
  settings: MailSettings,
): Promise<void> {
  if (count === 0) return;
  const limit = settings.invitationsPerDay ?? DEFAULT_INVITATIONS_PER_DAY;
  const used = await hitRateLimit(tx, rateLimitKey('invitations', organizationId), DAY_SECONDS, count);
  if (used > limit) throw AppError.of('rate_limited', APP_MSG.tooManyInvitations(limit));
}

/**
 * The page of the code; a teacher's says so (`for=teacher`), and ends on "you are done", not on a sign-in. An
 * account that has no password yet (invited before and never set up) says `new=1`: the page asks for the
 * password with the code, as /register/verify does, instead of sending the code alone to be told
 * `password_required` (issue 33). Only the mailbox's owner sees the link.
 */
const invitationLink = (
  settings: MailSettings,
  email: string,
  organizationId: string,
  { forTeacher, needsPassword }: { forTeacher: boolean; needsPassword: boolean },
) =>
  publicLink(settings, '/invitation', {
    email,
    organization: organizationId,
    ...(needsPassword ? { new: '1' } : {}),
    ...(forTeacher ? { for: 'teacher' } : {}),
  });

/**
 * Mails each invited account a code for its invitation to the organization (a fresh code per account, one
 * per organization: invitations of two organizations stay open side by side). To the account's own address.
 */
export async function queueMembershipInvitations(
  tx: Tx,
  input: { organizationId: string; userIds: readonly string[]; inviterName: string },
  settings: MailSettings,
): Promise<void> {
  if (input.userIds.length === 0) return;
  // The code's subject: ids compare as text there, so always in one spelling.
  const organizationId = input.organizationId.toLowerCase();
  const invited = await rows<{
    id: string;
    email: string;
    name: string;
    role: MemberRole;
    organization: string;
    has_password: boolean;
  }>(
    tx,
    sql`select u.id, u.email, u.name, i.role, o.name as organization,
          u.password_hash is not null as has_password
        from membership_invitations i join users u on u.id = i.user_id
        join organizations o on o.id = i.organization_id
        where i.organization_id = ${organizationId} and i.user_id in ${uuidsIn(input.userIds)}`,
  );
  const codes = await issueCodes(tx, {
    userIds: invited.map((p) => p.id),
    purpose: PURPOSE,
    lifetimeMinutes: CODE_MINUTES,
    subject: organizationId,
  });
  // Invited as a teacher, by an account that is a teacher wherever it is a member: a teacher's mail.
  const teachers = await withoutPanelAccess(
    tx,
    invited.filter((p) => p.role === 'user').map((p) => p.id),
  );
  await queueMails(
    tx,
    invited.map((person) =>
      membershipInvitationMail({
        to: person.email,
        name: person.name,
        inviterName: input.inviterName,
        organizationName: person.organization,
        roleLabel: ROLE_LABEL[person.role as Role],
        code: codes.get(person.id) ?? '',
        link: invitationLink(settings, person.email, organizationId, {
          forTeacher: teachers.has(person.id),
          needsPassword: !person.has_password,
        }),
        forTeacher: teachers.has(person.id),
      }),
    ),
  );
}

/** Withdraws open invitations to the organization: the seats they held are free, their codes stop working. */
export async function cancelInvitations(tx: Tx, organizationId: string, userIds: readonly string[]) {
  await tx.execute(sql`delete from membership_invitations
    where organization_id = ${organizationId} and user_id in ${uuidsIn(userIds)}`);
  await tx.execute(sql`delete from one_time_codes where purpose = ${PURPOSE}
    and subject = ${organizationId.toLowerCase()} and user_id in ${uuidsIn(userIds)}`);
}

const notAccepted = () => AppError.of('invalid_code', APP_MSG.invitationNotAccepted);

/** The code of an invitation, counted and checked (a password hashed), before the transaction. */
export async function checkInvitationCode(
  db: Db,
  input: AcceptInvitationRequest,
  ip: string,
): Promise<CheckedCode> {
  const account = await accountByEmail(db, input.email);
  const organizationId = input.organizationId.toLowerCase();
  return checkCode(db, {
    purpose: PURPOSE,
    account: input.email,
    ip,
    userId: account && isUuid(organizationId) ? account.id : null,
    code: input.code,
    subject: organizationId,
    needsPassword: account?.has_password === false,
    ...(input.password === undefined ? {} : { password: input.password }),
    refused: notAccepted,
  });
}

/**
 * POST /api/auth/invitation/accept: with the code of its invitation mail, the account becomes a member of
 * the organization with the role and the seat held for it (an owner takes over the ownership; the owner
 * before becomes an admin). The address is verified by the same code; an account without a password yet
 * sets one here.
 */
export async function acceptInvitation(
  tx: Tx,
  input: AcceptInvitationRequest,
  checked: CheckedCode,
): Promise<{ success: true; organizationId: string }> {
  const organizationId = input.organizationId.toLowerCase();
  return redeemCode(tx, checked, async (tx, { userId, passwordHash }) => {
    await lockOrganization(tx, organizationId);
    // The seat moves from the invitation to the membership: its licence is locked first, as by every change
    // of seat holders (locks.ts: licences before memberships; the database's seat check locks it too).
    await lockOrganizationSeats(tx, organizationId);
    const [invitation] = await rows<{ role: MemberRole; license_id: string | null }>(
      tx,
      sql`delete from membership_invitations where user_id = ${userId} and organization_id = ${organizationId}
          returning role, license_id`,
    );
    // Cancelled (or the organization deleted) after the mail went out.
    if (!invitation) throw notAccepted();
    // An owner joins as admin and then takes the ownership over: never two owners.
    const role = invitation.role === 'organization_owner' ? 'organization_admin' : invitation.role;
    await tx.execute(sql`insert into memberships (user_id, organization_id, role, license_id)
      values (${userId}, ${organizationId}, ${role}, ${invitation.license_id})`);
    if (invitation.role === 'organization_owner') await transferOwnership(tx, organizationId, userId);
    // An owner or admin of a tree that requires two-factor now: sessions that did not prove it end (§3).
    if (role !== 'user') await endSessionsWithoutRequiredMfa(tx, [userId]);
    await markVerified(tx, userId, passwordHash);
    return { success: true as const, organizationId };
  });
}

/** May an invitation mail go to this address from this IP? Counted on its own, before the transaction. */
export function mayResendInvitation(db: Db, input: ResendInvitationRequest, ip: string): Promise<boolean> {
  return mayRequestMail(db, 'invitation', input.email, ip);
}

/**
 * POST /api/auth/invitation/resend: a new code for an open invitation of that account to that organization
 * (an earlier code works on until it expires), when `mayResendInvitation` allowed it. The same answer
 * whatever the email, and limited like the other mails.
 */
export async function resendInvitation(
  tx: Tx,
  input: ResendInvitationRequest,
  mayMail: boolean,
  settings: MailSettings,
): Promise<void> {
  if (!mayMail) return;
  const account = await accountByEmail(tx, input.email);
  const organizationId = input.organizationId.toLowerCase();
  if (!account || !isUuid(organizationId)) return;
  const [open] = await rows<{ inviter: string | null }>(
    tx,
    sql`select inviter.name as inviter from membership_invitations i
        left join users inviter on inviter.id = i.invited_by
        where i.user_id = ${account.id} and i.organization_id = ${organizationId}`,
  );
  if (!open) return;
  await queueMembershipInvitations(
    tx,
    { organizationId, userIds: [account.id], inviterName: open.inviter ?? 'An admin' },
    settings,
  );
}
