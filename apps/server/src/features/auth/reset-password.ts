import {
  type CheckResetCodeRequest,
  CODE_MINUTES,
  type ForgotPasswordRequest,
  type ResetPasswordRequest,
} from '@allot/domain/auth';
import { MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { type RefusalAfterCommit, refuseAfterCommit } from '../../http/write-route';
import { type MailSettings, publicLink, queueMail } from '../mail';
import { passwordResetMail } from './account-mails';
import { type CodeAttempt, countCodeAttempt, issueCode, mayRequestMail, verifyCode } from './one-time-codes';
import { type CheckedCode, checkCode, redeemCode } from './redeem-code';
import { revokeAllSessions } from './sessions';
import { clearSignInLimits } from './sign-in-limits';

const PURPOSE = 'password_reset';

/** May a reset mail go to this address from this IP? Counted on its own, before the transaction. */
export function mayMailPasswordReset(db: Db, input: ForgotPasswordRequest, ip: string): Promise<boolean> {
  return mayRequestMail(db, 'forgot', input.email.toLowerCase(), ip);
}

/**
 * POST /api/auth/password/forgot: the same answer whether or not the email has an account. For one that
 * has, and when `mayMailPasswordReset` allowed it, a code and a link go out through the outbox (the request
 * never waits for SMTP).
 */
export async function requestPasswordReset(
  tx: Tx,
  input: ForgotPasswordRequest,
  mayMail: boolean,
  settings: MailSettings,
): Promise<void> {
  if (!mayMail) return;
  const email = input.email.toLowerCase();
  const [user] = await rows<{ id: string; email: string; name: string }>(
    tx,
    sql`select id, email, name from users where lower(email) = ${email} limit 1`,
  );
  if (!user) return;
  const { code, token } = await issueCode(tx, {
    userId: user.id,
    purpose: PURPOSE,
    lifetimeMinutes: CODE_MINUTES,
    withToken: true,
  });
  const link = publicLink(settings, `/password/token/${user.id}/${token}`);
  await queueMail(tx, passwordResetMail({ to: user.email, name: user.name, code, link }));
}

/** Counts a check of a reset code, on its own, before the transaction. */
export function countResetCodeCheck(db: Db, input: CheckResetCodeRequest, ip: string): Promise<CodeAttempt> {
  return countCodeAttempt(db, PURPOSE, input.userId, ip);
}

/**
 * POST /api/auth/password/check: is this the code of that link? The code stays usable; a wrong one is
 * counted against it (kept: the refusal is answered after the commit).
 */
export async function checkResetCode(
  tx: Tx,
  input: CheckResetCodeRequest,
  attempt: CodeAttempt,
): Promise<{ success: true } | RefusalAfterCommit> {
  const ok = await verifyCode(tx, { ...input, purpose: PURPOSE, consume: false });
  if (!ok) return refuseAfterCommit(AppError.of('invalid_code', MSG.resetCodeNotVerified));
  await attempt.release(tx);
  return { success: true };
}

/** The code of a reset, counted and checked and the new password hashed, before the transaction. */
export function checkPasswordReset(db: Db, input: ResetPasswordRequest, ip: string): Promise<CheckedCode> {
  return checkCode(db, {
    purpose: PURPOSE,
    account: input.userId,
    ip,
    userId: input.userId,
    code: input.code,
    token: input.token,
    needsPassword: true,
    password: input.password,
    refused: () => AppError.of('invalid_code', MSG.resetFailed),
  });
}

/**
 * POST /api/auth/password/reset: sets the new password, uses the code up and ends every session of the
 * user, in one transaction. Whoever got the code owns the address, so the email counts as verified too.
 */
export async function resetPassword(tx: Tx, checked: CheckedCode): Promise<{ success: true }> {
  await redeemCode(tx, checked, async (tx, { userId, passwordHash }) => {
    const [user] = await rows<{ email: string }>(
      tx,
      sql`update users set password_hash = ${passwordHash},
            email_verified_at = coalesce(email_verified_at, now()), updated_at = now()
          where id = ${userId} returning email`,
    );
    await revokeAllSessions(tx, userId);
    // A locked-out sign-in opens again with the new password: the account's ceiling and every pair of it.
    if (user) await clearSignInLimits(tx, user.email);
  });
  return { success: true };
}
