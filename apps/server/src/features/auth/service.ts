import type { LoginRequest, LoginResponse } from '@allot/domain/auth';
import { APP_MSG, MSG } from '@allot/domain/messages';
import { hasPanelAccess } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { clearRateLimit, hitRateLimit, rateLimitKey, releaseRateLimit } from '../../lib/rate-limit';
import { strongestRoleAnywhere } from '../organization-access/access';
import { verifyPassword } from './passwords';
import { createSession } from './sessions';

export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const LOGIN_LIMIT_PER_EMAIL = 10;
export const LOGIN_LIMIT_PER_IP = 100;

/** The sign-in counter of one address (a reset that sets a new password clears it). */
export const loginEmailKey = (email: string) => rateLimitKey('login', 'email', email);

/**
 * Sign in (CONTRACT §3). Every attempt is counted before the password is checked, per email and per
 * IP, in the database; a successful one is given back. Unknown email and wrong password answer alike.
 */
export async function login(db: Db, input: LoginRequest, ip: string): Promise<LoginResponse> {
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
  }>(
    db,
    sql`select id, email, password_hash, email_verified_at, is_system_admin
         from users where lower(email) = ${email} limit 1`,
  );
  const user = found[0];
  const passwordOk = await verifyPassword(user?.password_hash, input.password);
  if (!user || !passwordOk) throw AppError.of('invalid_credentials', MSG.signInFailed);

  await Promise.all([clearRateLimit(db, emailKey), releaseRateLimit(db, ipKey)]);
  if (!user.email_verified_at) throw AppError.of('not_verified', MSG.notVerified);
  const role = user.is_system_admin ? 'system_admin' : await strongestRoleAnywhere(db, user.id);
  if (!role || !hasPanelAccess(role)) throw AppError.of('no_panel_access', APP_MSG.noPanelAccess);

  const secToken = await createSession(db, user.id);
  return { secToken, userId: user.id, userEmail: user.email, role };
}
