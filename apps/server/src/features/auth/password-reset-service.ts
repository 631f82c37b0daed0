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
import { queueMail } from '../mail/outbox';
import { type MailSettings, publicLink } from '../mail/public-links';
import { passwordResetMail } from './account-mails';
import { countCodeAttempt, issueCode, mayRequestMail, verifyCode } from './one-time-codes';
import { hashPassword } from './passwords';
import { revokeAllSessions } from './sessions';

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
): Promise<{ success: true }> {
  const email = input.email.toLowerCase();
  if (!(await mayRequestMail(db, 'forgot', email, ip))) return { success: true };
  const [user] = await rows<{ id: string; email: string; name: string }>(
    db,
    sql`select id, email, name from users where lower(email) = ${email} limit 1`,
  );
  if (!user) return { success: true };
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
  return { success: true };
}

/** POST /api/auth/password/check: is this the code of that link? The code stays usable. */
export async function checkResetCode(
  db: Db,
  input: CheckResetCodeRequest,
  ip: string,
): Promise<{ success: true }> {
  const attempt = await countCodeAttempt(db, `${PURPOSE}:${input.userId}`, ip);
  const ok = await verifyCode(db, { ...input, purpose: PURPOSE, consume: false });
  if (!ok) throw new AppError(400, 'invalid_code', MSG.resetCodeNotVerified);
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
  const attempt = await countCodeAttempt(db, `${PURPOSE}:${input.userId}`, ip);
  const refused = () => new AppError(400, 'invalid_code', MSG.resetFailed);
  // Checked before the (deliberately slow) hash, so that wrong codes cost the server nothing.
  if (!(await verifyCode(db, { ...input, purpose: PURPOSE, consume: false }))) throw refused();
  const passwordHash = await hashPassword(input.password);
  const email = await writeTransaction(db, async (tx) => {
    if (!(await verifyCode(tx, { ...input, purpose: PURPOSE, consume: true }))) throw refused();
    const [user] = await rows<{ email: string }>(
      tx,
      sql`update users set password_hash = ${passwordHash},
            email_verified_at = coalesce(email_verified_at, now()), updated_at = now()
          where id = ${input.userId} returning email`,
    );
    await revokeAllSessions(tx, input.userId);
    return user?.email;
  });
  await attempt.release();
  // A locked-out sign-in opens again with the new password.
  if (email) await clearRateLimit(db, `login:email:${email.toLowerCase()}`);
  return { success: true };
}
