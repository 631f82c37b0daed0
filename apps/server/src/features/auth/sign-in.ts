import type { LoginRequest, LoginResponse } from '@allot/domain/auth';
import { APP_MSG, MSG } from '@allot/domain/messages';
import { MFA_MSG } from '@allot/domain/mfa';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { writeTransaction } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import { clearRateLimit, hitRateLimit, rateLimitKey, releaseRateLimit } from '../../lib/rate-limit';
import { issueChallenge } from './mfa-challenges';
import { isMfaRequired } from './mfa-requirement';
import { openPanelSession, requirePanelRole } from './panel-session';
import { verifyPassword } from './passwords';
import type { TwoFactorSettings } from './two-factor-settings';

export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const LOGIN_LIMIT_PER_EMAIL = 10;
export const LOGIN_LIMIT_PER_IP = 100;

/** The sign-in counter of one address (a reset that sets a new password clears it). */
export const loginEmailKey = (email: string) => rateLimitKey('login', 'email', email);

/**
 * Sign in (CONTRACT §3). Every attempt is counted before the password is checked, per email and per
 * IP, in the database; a successful one is given back. Unknown email and wrong password answer alike.
 * With two-factor on, a right password answers `403 mfa_required` with a challenge for the code step
 * (`POST /api/auth/mfa/verify`); required and not set up, `403 mfa_setup_required` with a challenge for
 * setting it up (decision 015).
 */
export async function login(
  db: Db,
  input: LoginRequest,
  ip: string,
  twoFactor: TwoFactorSettings,
): Promise<LoginResponse> {
  const email = input.email.toLowerCase();
  const emailKey = loginEmailKey(email);
  const ipKey = rateLimitKey('login', 'ip', ip);
  const [byEmail, byIp] = await Promise.all([
    hitRateLimit(db, emailKey, LOGIN_WINDOW_SECONDS),
    hitRateLimit(db, ipKey, LOGIN_WINDOW_SECONDS),
  ]);
  if (byEmail > LOGIN_LIMIT_PER_EMAIL || byIp > LOGIN_LIMIT_PER_IP) {
    throw AppError.of('rate_limited', APP_MSG.tooManyAttempts);
  }

  const found = await rows<{
    id: string;
    email: string;
    password_hash: string | null;
    email_verified_at: string | null;
    is_system_admin: boolean;
    mfa_on: boolean;
  }>(
    db,
    sql`select u.id, u.email, u.password_hash, u.email_verified_at, u.is_system_admin,
          exists (select 1 from user_mfa f where f.user_id = u.id and f.enabled_at is not null) as mfa_on
         from users u where lower(u.email) = ${email} limit 1`,
  );
  const user = found[0];
  const passwordOk = await verifyPassword(user?.password_hash, input.password);
  if (!user || !passwordOk) throw AppError.of('invalid_credentials', MSG.signInFailed);

  await Promise.all([clearRateLimit(db, emailKey), releaseRateLimit(db, ipKey)]);
  if (!user.email_verified_at) throw AppError.of('not_verified', MSG.notVerified);
  const account = { userId: user.id, email: user.email, isSystemAdmin: user.is_system_admin };
  await requirePanelRole(db, account);
  if (user.mfa_on) {
    const challenge = await issueChallenge(db, user.id, 'sign_in');
    throw AppError.of('mfa_required', MFA_MSG.codeNeeded, { challenge });
  }
  if (await isMfaRequired(db, account, twoFactor)) {
    const challenge = await issueChallenge(db, user.id, 'setup');
    throw AppError.of('mfa_setup_required', MFA_MSG.setupNeeded, { challenge });
  }
  return writeTransaction(db, (tx) => openPanelSession(tx, account));
}
