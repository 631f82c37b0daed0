import {
  type CheckResetCodeRequest,
  CODE_MINUTES,
  type ForgotPasswordRequest,
  type ResetPasswordRequest,
} from '@allot/domain/auth';
import { MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { writeTransaction } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import { clearRateLimit } from '../../lib/rate-limit';
import { type MailSettings, publicLink, queueMail } from '../mail';
import { passwordResetMail } from './account-mails';
import { countCodeAttempt, issueCode, mayRequestMail, verifyCode } from './one-time-codes';
import { redeemCode } from './redeem-code';
import { revokeAllSessions } from './sessions';
import { loginEmailKey } from './sign-in';

const PURPOSE = 'password_reset';

/**
 * POST /api/auth/password/forgot: the same answer whether or not the email has an account. For one that
 * has, a code and a link go out through the outbox (the request never waits for SMTP).
 */
export async function requestPasswordReset(
  db: Db,
  input: ForgotPasswordRequest,
  ip: string,
  settings: MailSettings,
): Promise<void> {
  const email = input.email.toLowerCase();
  if (!(await mayRequestMail(db, 'forgot', email, ip))) return;
  const [user] = await rows<{ id: string; email: string; name: string }>(
    db,
    sql`select id, email, name from users where lower(email) = ${email} limit 1`,
  );
  if (!user) return;
  await writeTransaction(db, async (tx) => {
    const { code, token } = await issueCode(tx, {
      userId: user.id,
      purpose: PURPOSE,
      lifetimeMinutes: CODE_MINUTES,
      withToken: true,
    });
    const link = publicLink(settings, `/password/token/${user.id}/${token}`);
    await queueMail(tx, passwordResetMail({ to: user.email, name: user.name, code, link }));
  });
}

/** POST /api/auth/password/check: is this the code of that link? The code stays usable. */
export async function checkResetCode(
  db: Db,
  input: CheckResetCodeRequest,
  ip: string,
): Promise<{ success: true }> {
  const attempt = await countCodeAttempt(db, PURPOSE, input.userId, ip);
  const ok = await verifyCode(db, { ...input, purpose: PURPOSE, consume: false });
  if (!ok) throw AppError.of('invalid_code', MSG.resetCodeNotVerified);
  await attempt.release();
  return { success: true };
}

/**
 * POST /api/auth/password/reset: sets the new password, uses the code up and ends every session of the
 * user, in one transaction. Whoever got the code owns the address, so the email counts as verified too.
 */
export async function resetPassword(
  db: Db,
  input: ResetPasswordRequest,
  ip: string,
): Promise<{ success: true }> {
  const email = await redeemCode(
    db,
    {
      purpose: PURPOSE,
      account: input.userId,
      ip,
      userId: input.userId,
      code: input.code,
      token: input.token,
      needsPassword: true,
      password: input.password,
      refused: () => AppError.of('invalid_code', MSG.resetFailed),
    },
    async (tx, { userId, passwordHash }) => {
      const [user] = await rows<{ email: string }>(
        tx,
        sql`update users set password_hash = ${passwordHash},
              email_verified_at = coalesce(email_verified_at, now()), updated_at = now()
            where id = ${userId} returning email`,
      );
      await revokeAllSessions(tx, userId);
      return user?.email;
    },
  );
  // A locked-out sign-in opens again with the new password.
  if (email) await clearRateLimit(db, loginEmailKey(email));
  return { success: true };
}
