import { CODE_MINUTES, type ResendVerificationRequest, type VerifyEmailRequest } from '@allot/domain/auth';
import { MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { type MailSettings, publicLink, queueMail, queueMails } from '../mail';
import { invitationMail, verificationMail } from './account-mails';
import { issueCode, issueCodes, mayRequestMail } from './one-time-codes';
import { withoutPanelAccess } from './panel-session';
import { type CheckedCode, checkCode, redeemCode } from './redeem-code';

const PURPOSE = 'email_verification';

/**
 * The page of the code. `needsPassword` (`new=1`): the account has no password yet, so the page asks for one with
 * the code instead of first sending the code alone to be told `password_required` (a 400 in every new account's
 * console, issue 33); only the mailbox's owner sees the link, so it tells nobody else whether the account has a
 * password. `forTeacher` (`for=teacher`): the page speaks to a teacher and ends on "you are done", not on a
 * sign-in.
 */
const verifyLink = (
  settings: MailSettings,
  email: string,
  { needsPassword, forTeacher }: { needsPassword: boolean; forTeacher: boolean },
) =>
  publicLink(settings, '/register/verify', {
    email,
    ...(needsPassword ? { new: '1' } : {}),
    ...(forTeacher ? { for: 'teacher' } : {}),
  });

/**
 * The invitation of an account an admin created: a verification code (CONTRACT §3: 30 minutes; once it has
 * expired, /register/verify sends a fresh one) and a mail with the link to /register/verify. Call it in the
 * transaction that creates the account, so that both happen or neither.
 */
export async function queueInvitation(
  tx: Tx,
  input: { userId: string; organizationId?: string },
  settings: MailSettings,
): Promise<void> {
  await queueInvitations(tx, { userIds: [input.userId], organizationId: input.organizationId }, settings);
}

/** queueInvitation for many accounts of one organization (imports): a few statements whatever the count. */
export async function queueInvitations(
  tx: Tx,
  input: { userIds: readonly string[]; organizationId?: string },
  settings: MailSettings,
): Promise<void> {
  if (input.userIds.length === 0) return;
  const people = await rows<{ id: string; email: string; name: string }>(
    tx,
    sql`select id, email, name from users
        where id in ${uuidsIn(input.userIds)}`,
  );
  if (people.length !== new Set(input.userIds).size) throw new Error('queueInvitations: unknown user');
  const [organization] = input.organizationId
    ? await rows<{ name: string }>(tx, sql`select name from organizations where id = ${input.organizationId}`)
    : [];
  const codes = await issueCodes(tx, {
    userIds: people.map((p) => p.id),
    purpose: PURPOSE,
    lifetimeMinutes: CODE_MINUTES,
  });
  const teachers = await withoutPanelAccess(
    tx,
    people.map((p) => p.id),
  );
  await queueMails(
    tx,
    people.map((person) =>
      invitationMail({
        to: person.email,
        name: person.name,
        code: codes.get(person.id) ?? '',
        // An account an admin created has no password until its invitation is taken up.
        link: verifyLink(settings, person.email, {
          needsPassword: true,
          forTeacher: teachers.has(person.id),
        }),
        organizationName: organization?.name ?? null,
        forTeacher: teachers.has(person.id),
      }),
    ),
  );
}

/** The code of an email verification, counted and checked (a password hashed), before the transaction. */
export async function checkEmailVerification(
  db: Db,
  input: VerifyEmailRequest,
  ip: string,
): Promise<CheckedCode> {
  const email = input.email.toLowerCase();
  const user = await accountByEmail(db, email);
  return checkCode(db, {
    purpose: PURPOSE,
    account: email,
    ip,
    userId: user?.id ?? null,
    code: input.code,
    needsPassword: user?.has_password === false,
    ...(input.password === undefined ? {} : { password: input.password }),
    refused: () => AppError.of('invalid_code', MSG.verificationFailed),
  });
}

/**
 * POST /api/auth/verify: a right code marks the email verified and, for an account without a password
 * (an invitation), sets the one given. Without one `checkEmailVerification` answers `password_required` and
 * keeps the code.
 */
export async function verifyEmail(tx: Tx, checked: CheckedCode): Promise<{ success: true }> {
  await redeemCode(tx, checked, (tx, { userId, passwordHash }) => markVerified(tx, userId, passwordHash));
  return { success: true };
}

/** The account of an address (compared case-insensitively), and whether it has a password yet. */
export async function accountByEmail(
  db: Tx,
  email: string,
): Promise<{ id: string; email: string; name: string; has_password: boolean } | undefined> {
  const [user] = await rows<{ id: string; email: string; name: string; has_password: boolean }>(
    db,
    sql`select id, email, name, password_hash is not null as has_password from users
        where lower(email) = ${email.trim().toLowerCase()} limit 1`,
  );
  return user;
}

/**
 * Whoever entered a code mailed to the account's address owns it: the email counts as verified, and an
 * account without a password gets the one given. `coalesce`: never replaces a password; a code is not a
 * way to change one.
 */
export async function markVerified(tx: Tx, userId: string, passwordHash: string | null): Promise<void> {
  await tx.execute(sql`update users set email_verified_at = coalesce(email_verified_at, now()),
    password_hash = coalesce(password_hash, ${passwordHash}), updated_at = now() where id = ${userId}`);
}

/** May a verification mail go to this address from this IP? Counted on its own, before the transaction. */
export function mayResendVerification(
  db: Db,
  input: ResendVerificationRequest,
  ip: string,
): Promise<boolean> {
  return mayRequestMail(db, 'resend', input.email.toLowerCase(), ip);
}

/**
 * POST /api/auth/verify/resend: the same answer whatever the email. An account that is not verified yet gets,
 * when `mayResendVerification` allowed it, a new code (an earlier one works on until it expires) in a mail that
 * says whether to choose a password.
 */
export async function resendVerification(
  tx: Tx,
  input: ResendVerificationRequest,
  mayMail: boolean,
  settings: MailSettings,
): Promise<void> {
  if (!mayMail) return;
  const email = input.email.toLowerCase();
  const [user] = await rows<{ id: string; email: string; name: string; has_password: boolean }>(
    tx,
    sql`select id, email, name, password_hash is not null as has_password from users
        where lower(email) = ${email} and email_verified_at is null limit 1`,
  );
  if (!user) return;
  await queueVerification(tx, user, settings);
}

/**
 * A new verification code for an account that is not verified yet (an earlier one works on until it expires), in a mail
 * that says whether to choose a password. In the caller's transaction.
 */
export async function queueVerification(
  tx: Tx,
  user: { id: string; email: string; name: string; has_password: boolean },
  settings: MailSettings,
): Promise<void> {
  const { code } = await issueCode(tx, {
    userId: user.id,
    purpose: PURPOSE,
    lifetimeMinutes: CODE_MINUTES,
  });
  const forTeacher = (await withoutPanelAccess(tx, [user.id])).has(user.id);
  await queueMail(
    tx,
    verificationMail({
      to: user.email,
      name: user.name,
      code,
      link: verifyLink(settings, user.email, { needsPassword: !user.has_password, forTeacher }),
      needsPassword: !user.has_password,
      forTeacher,
    }),
  );
}
