import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { hitRateLimit, rateLimitKey } from '../../lib/rate-limit';
import { queueInvitations, queueVerification } from '../auth';
import type { MailSettings } from '../mail';
import { lockOrganization, type OrganizationAccess, requireOrganizationAccess } from '../organization-access';
import { countInvitations, queueMembershipInvitations } from './invitations';
import { lockMembers, requireNotAbove } from './member-guards';

/** Invitations one session may send again in a window (one person at a time: a runaway script stops here). */
export const RESENDS_PER_SESSION = 20;
/** Invitations sent again to one person of one organization in a window: the invitee is not mailed a stream. */
export const RESENDS_PER_PERSON = 3;
const RESEND_WINDOW_SECONDS = 15 * 60;

/**
 * Before a resend's transaction, on its own: the access, then the resend counted against the session's window
 * (`429`); the count stays when the resend is refused.
 */
export async function countMemberResend(
  db: Db,
  user: AuthUser,
  organizationId: string,
): Promise<OrganizationAccess> {
  const access = await requireOrganizationAccess(db, user, organizationId, ['manage_users']);
  const sent = await hitRateLimit(db, rateLimitKey('resend', user.sessionId), RESEND_WINDOW_SECONDS);
  if (sent > RESENDS_PER_SESSION) throw AppError.of('rate_limited', APP_MSG.tooManyResends);
  return access;
}

/**
 * POST /api/organization/{id}/users/{userId}/invitation/resend: mails a pending person of the organization
 * again, with a new code (the code of the earlier mail works on until it expires; using either ends both):
 * - a new account that has not set itself up: the invitation to set it up (or, when it already has a
 *   password, the verification mail), as when it was added;
 * - an account that existed and was invited to join: a new invitation mail with the code to join.
 * `404` for anyone who is not pending in the organization (a member who joined, an unknown id); `403` for a
 * person whose role is above the caller's (the rule of every change of a person). After `countMemberResend`;
 * counted against the organization's invitations a day and, per person, against a short window (`429`).
 */
export async function resendMemberInvitation(
  tx: Tx,
  user: AuthUser,
  access: OrganizationAccess,
  organizationId: string,
  userId: string,
  mail: MailSettings,
): Promise<{ success: true }> {
  await lockOrganization(tx, organizationId, 'key share');
  const [person] = await lockMembers(tx, organizationId, [userId]);
  if (!person) throw AppError.notFound();
  const [account] = await rows<{
    id: string;
    email: string;
    name: string;
    verified: boolean;
    has_password: boolean;
  }>(
    tx,
    sql`select id, email, name, email_verified_at is not null as verified,
          password_hash is not null as has_password
        from users where id = ${person.userId}`,
  );
  if (!account) throw AppError.notFound();
  // A member whose account is set up is not pending: there is nothing to resend.
  if (person.kind === 'member' && account.verified) throw AppError.notFound();
  requireNotAbove(access.role, [person]);

  const toPerson = await hitRateLimit(
    tx,
    rateLimitKey('resend', organizationId, person.userId),
    RESEND_WINDOW_SECONDS,
  );
  if (toPerson > RESENDS_PER_PERSON) throw AppError.of('rate_limited', APP_MSG.resentRecently);
  await countInvitations(tx, organizationId, 1, mail);

  if (person.kind === 'invitation') {
    await queueMembershipInvitations(
      tx,
      { organizationId, userIds: [person.userId], inviterName: user.name },
      mail,
    );
  } else if (account.has_password) {
    await queueVerification(tx, account, mail);
  } else {
    await queueInvitations(tx, { userIds: [person.userId], organizationId }, mail);
  }
  return { success: true };
}
