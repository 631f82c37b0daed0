import type { LoginRequest, LoginResponse } from '@allot/domain/auth';
import { MSG } from '@allot/domain/messages';
import { MFA_MSG } from '@allot/domain/mfa';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { type RefusalAfterCommit, refuseAfterCommit } from '../../http/write-route';
import { issueChallenge } from './mfa-challenges';
import { holdRequirementForSignIn, isMfaRequired } from './mfa-requirement';
import { holdPanelRole, openPanelSession } from './panel-session';
import { verifyPassword } from './passwords';
import { countSignInAttempt, SIGN_IN_LIMITS, type SignInLimits } from './sign-in-limits';
import type { SignInSettings } from './sign-in-settings';

/** The account whose password `checkSignIn` found right. */
export interface SignedIn {
  userId: string;
  email: string;
  isSystemAdmin: boolean;
  verified: boolean;
  mfaOn: boolean;
}

/**
 * Sign in (CONTRACT §3), the step before the transaction, on its own: every attempt is counted before the
 * password is checked, in the database, per account and address together, per address and per account
 * (sign-in-limits.ts), or refused with `429` and the wait; a right one clears its pair and is given back (a
 * refusal that follows still counts as given back). Unknown email and wrong password answer alike.
 */
export async function checkSignIn(
  db: Db,
  input: LoginRequest,
  ip: string,
  limits: SignInLimits = SIGN_IN_LIMITS,
): Promise<SignedIn> {
  const email = input.email.toLowerCase();
  const attempt = await countSignInAttempt(db, email, ip, limits);

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

  await attempt.succeeded(db);
  return {
    userId: user.id,
    email: user.email,
    isSystemAdmin: user.is_system_admin,
    verified: user.email_verified_at !== null,
    mfaOn: user.mfa_on,
  };
}

/**
 * Sign in, in the transaction, for the account `checkSignIn` found. With two-factor on, a right password
 * answers `403 mfa_required` with a challenge for the code step (`POST /api/auth/mfa/verify`); required and
 * not set up, `403 mfa_setup_required` with a challenge for setting it up (decision 015). Either challenge is
 * kept: the refusal is answered after the commit.
 */
export async function login(
  tx: Tx,
  user: SignedIn,
  settings: SignInSettings,
): Promise<LoginResponse | RefusalAfterCommit> {
  if (!user.verified) throw AppError.of('not_verified', MSG.notVerified);
  const account = { userId: user.userId, email: user.email, isSystemAdmin: user.isSystemAdmin };
  // Held before the questions below, so that a change that makes two-factor required does not cross them.
  await holdPanelRole(tx, account);
  await holdRequirementForSignIn(tx, user.userId);
  if (user.mfaOn) {
    const challenge = await issueChallenge(tx, user.userId, 'sign_in');
    return refuseAfterCommit(AppError.of('mfa_required', MFA_MSG.codeNeeded, { challenge }));
  }
  if (await isMfaRequired(tx, account, settings)) {
    const challenge = await issueChallenge(tx, user.userId, 'setup');
    return refuseAfterCommit(AppError.of('mfa_setup_required', MFA_MSG.setupNeeded, { challenge }));
  }
  return openPanelSession(tx, account, { usedMfa: false, settings });
}
