import type { LoginResponse } from '@allot/domain/auth';
import { MSG } from '@allot/domain/messages';
import type {
  MfaConfirmRequest,
  MfaEnableRequest,
  MfaEnableResponse,
  MfaSetupRequest,
  MfaSetupResponse,
  MfaStatus,
  MfaVerifyRequest,
  RecoveryCodesResponse,
} from '@allot/domain/mfa';
import { MFA_MSG } from '@allot/domain/mfa';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { findChallenge, useChallenge } from './mfa-challenges';
import { isMfaRequired } from './mfa-requirement';
import { openSecret, sealSecret } from './mfa-secrets';
import { type CodeAttempt, countCodeAttempt } from './one-time-codes';
import { openPanelSession } from './panel-session';
import { verifyPassword } from './passwords';
import { recoveryCodesLeft, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes';
import { markSessionUsedMfa, revokeAllSessions } from './sessions';
import type { SignInSettings } from './sign-in-settings';
import { newTotpSecret, otpauthUrl, totpStep } from './totp';

/**
 * Two-factor sign-in (CONTRACT §3, decision 015). Every call that checks a password or a code counts the
 * attempt against the account and the IP first (the limits of every typed code: 5 per account, 50 per IP in
 * 15 minutes; a right attempt is given back), so neither can be walked.
 */

interface Account {
  userId: string;
  email: string;
  isSystemAdmin: boolean;
}

interface MfaRow {
  secret: string;
  enabled_at: string | null;
  last_used_step: string | number | null;
}

const wrongCode = () => AppError.of('invalid_code', MFA_MSG.wrongCode);
const expired = () => AppError.unauthorized(MFA_MSG.challengeExpired);

async function accountOf(db: Tx, userId: string): Promise<Account> {
  const [row] = await rows<{ email: string; is_system_admin: boolean }>(
    db,
    sql`select email, is_system_admin from users where id = ${userId}`,
  );
  if (!row) throw expired();
  return { userId, email: row.email, isSystemAdmin: row.is_system_admin };
}

/** The account's two-factor row, locked: codes of one account are checked one at a time. */
async function lockMfa(tx: Tx, userId: string): Promise<MfaRow | null> {
  const [row] = await rows<MfaRow>(
    tx,
    sql`select secret, enabled_at, last_used_step from user_mfa where user_id = ${userId} for update`,
  );
  return row ?? null;
}

async function requirePassword(db: Tx, userId: string, password: string | undefined): Promise<void> {
  if (!password) throw AppError.invalid({ password: MSG.required });
  const [row] = await rows<{ password_hash: string | null }>(
    db,
    sql`select password_hash from users where id = ${userId}`,
  );
  if (!(await verifyPassword(row?.password_hash, password))) {
    throw AppError.invalid({ password: MFA_MSG.wrongPassword }, MFA_MSG.wrongPassword);
  }
}

/**
 * Is `code` the account's second factor? A 6-digit code of its authenticator for a time step after the last
 * one used (the step is then recorded: each code works once), or one of its recovery codes (then deleted).
 * Call with the row locked (`lockMfa`), in the transaction of what the code allows.
 */
async function secondFactorOk(
  tx: Tx,
  userId: string,
  row: MfaRow,
  code: string,
  settings: SignInSettings,
): Promise<boolean> {
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    const lastStep = row.last_used_step === null ? null : Number(row.last_used_step);
    const step = await totpStep(openSecret(row.secret, userId, settings.encryptionKey), digits, lastStep);
    if (step === null) return false;
    await tx.execute(
      sql`update user_mfa set last_used_step = ${step}, updated_at = now() where user_id = ${userId}`,
    );
    return true;
  }
  return useRecoveryCode(tx, userId, code);
}

/** Removes the account's two-factor: its secret, recovery codes and open challenges. True when it was on. */
export async function turnOffMfa(tx: Tx, userId: string): Promise<boolean> {
  const removed = await rows<{ enabled: boolean }>(
    tx,
    sql`delete from user_mfa where user_id = ${userId} returning enabled_at is not null as enabled`,
  );
  await tx.execute(sql`delete from mfa_recovery_codes where user_id = ${userId}`);
  await tx.execute(sql`delete from mfa_challenges where user_id = ${userId}`);
  return removed[0]?.enabled === true;
}

/** GET /api/auth/mfa: the caller's two-factor. */
export async function getMfaStatus(db: Db, user: AuthUser, settings: SignInSettings): Promise<MfaStatus> {
  const [row] = await rows<{ enabled: boolean }>(
    db,
    sql`select exists (select 1 from user_mfa where user_id = ${user.userId} and enabled_at is not null) as enabled`,
  );
  const enabled = row?.enabled === true;
  const [left, required] = await Promise.all([
    enabled ? recoveryCodesLeft(db, user.userId) : Promise.resolve(0),
    isMfaRequired(db, user, settings),
  ]);
  return { enabled, recoveryCodesLeft: left, required };
}

/**
 * Who is setting two-factor up: the caller (its password checked) or, without a session, the account of a
 * setup challenge (`403 mfa_setup_required`: the password was checked by the sign-in that gave it).
 */
async function enrollingAccount(
  db: Db,
  caller: AuthUser | null,
  challenge: string | undefined,
): Promise<{ account: Account; challengeId: string | null }> {
  if (caller) return { account: caller, challengeId: null };
  if (!challenge) throw AppError.unauthorized();
  const found = await findChallenge(db, challenge, 'setup');
  if (!found) throw expired();
  return { account: await accountOf(db, found.userId), challengeId: found.id };
}

/**
 * Who sets two-factor up (`POST /api/auth/mfa/setup`), before the transaction: with a session, its password
 * is checked, counted like a code on its own (a right one given back).
 */
export async function checkMfaSetup(
  db: Db,
  caller: AuthUser | null,
  input: MfaSetupRequest,
  ip: string,
): Promise<Account> {
  const { account } = await enrollingAccount(db, caller, input.challenge);
  // Nothing else of the call is counted: a right password is given back at once.
  if (caller) await (await countedPassword(db, account.userId, input.password, ip)).release(db);
  return account;
}

/**
 * POST /api/auth/mfa/setup: a new secret for the account, waiting to be confirmed by `enable` (a secret that
 * was waiting is replaced). Answered this once; stored sealed (mfa-secrets.ts), never answered again.
 */
export async function setupMfa(
  tx: Tx,
  account: Account,
  settings: SignInSettings,
): Promise<MfaSetupResponse> {
  const secret = newTotpSecret();
  const row = await lockMfa(tx, account.userId);
  if (row?.enabled_at) throw AppError.of('conflict', MFA_MSG.alreadyOn);
  const sealed = sealSecret(secret, account.userId, settings.encryptionKey);
  await tx.execute(sql`insert into user_mfa (user_id, secret) values (${account.userId}, ${sealed})
    on conflict (user_id) do update set secret = excluded.secret, enabled_at = null, last_used_step = null,
      updated_at = now()`);
  return { secret, otpauthUrl: otpauthUrl(account.email, secret) };
}

/** Who turns two-factor on, and the attempt counted on its own before the transaction. */
export interface Enrolling {
  account: Account;
  challengeId: string | null;
  attempt: CodeAttempt;
}

export async function countMfaEnable(
  db: Db,
  caller: AuthUser | null,
  input: MfaEnableRequest,
  ip: string,
): Promise<Enrolling> {
  const { account, challengeId } = await enrollingAccount(db, caller, input.challenge);
  const attempt = await countCodeAttempt(db, 'two_factor', account.userId, ip);
  return { account, challengeId, attempt };
}

/**
 * POST /api/auth/mfa/enable: the first code of the authenticator confirms the secret; 10 recovery codes are
 * answered this once. Every other session of the account ends. With a setup challenge instead of a session,
 * the challenge is used up and the person is signed in: the answer carries the sign-in body.
 */
export async function enableMfa(
  tx: Tx,
  caller: AuthUser | null,
  { account, challengeId, attempt }: Enrolling,
  input: MfaEnableRequest,
  settings: SignInSettings,
): Promise<MfaEnableResponse> {
  const row = await lockMfa(tx, account.userId);
  if (row?.enabled_at) throw AppError.of('conflict', MFA_MSG.alreadyOn);
  if (!row) throw AppError.of('business_rule', MFA_MSG.noSetup);
  const secret = openSecret(row.secret, account.userId, settings.encryptionKey);
  const step = await totpStep(secret, input.code, null);
  if (step === null) throw wrongCode();
  await tx.execute(sql`update user_mfa set enabled_at = now(), last_used_step = ${step}, updated_at = now()
    where user_id = ${account.userId}`);
  const recoveryCodes = await replaceRecoveryCodes(tx, account.userId);
  let answer: MfaEnableResponse;
  if (challengeId === null) {
    await revokeAllSessions(tx, account.userId, { except: caller?.sessionId });
    // The caller's session just proved the second factor: a requirement gained later does not end it.
    if (caller) await markSessionUsedMfa(tx, caller.sessionId);
    answer = { recoveryCodes };
  } else {
    if (!(await useChallenge(tx, challengeId))) throw expired();
    await revokeAllSessions(tx, account.userId);
    answer = {
      recoveryCodes,
      session: await openPanelSession(tx, account, { usedMfa: true, settings }),
    };
  }
  await attempt.release(tx);
  return answer;
}

/** The password of a change to two-factor, checked before the transaction, counted on its own like a code. */
export function checkMfaPassword(
  db: Db,
  user: AuthUser,
  input: MfaConfirmRequest,
  ip: string,
): Promise<CodeAttempt> {
  return countedPassword(db, user.userId, input.password, ip);
}

/**
 * The account's password, where it is what is guessed: counted like a code (a wrong one stays counted), the
 * attempt answered for the caller to give back once the rest of the call succeeded.
 */
async function countedPassword(
  db: Db,
  userId: string,
  password: string | undefined,
  ip: string,
): Promise<CodeAttempt> {
  const attempt = await countCodeAttempt(db, 'two_factor', userId, ip);
  await requirePassword(db, userId, password);
  return attempt;
}

/**
 * The code checked (`useOwnCode`), then `change` in the transaction that used the code up; the attempt is given
 * back in it, so a change refused after the code rolls the giving back too.
 */
async function withCode<T>(
  tx: Tx,
  user: AuthUser,
  input: MfaConfirmRequest,
  attempt: CodeAttempt,
  settings: SignInSettings,
  change: (tx: Tx) => Promise<T>,
): Promise<T> {
  await useOwnCode(tx, user, input.code, attempt, settings, MFA_MSG.notOn);
  return change(tx);
}

/**
 * Before turning two-factor off: refused (`422`) while the account is required to have it; then the
 * password (`checkMfaPassword`).
 */
export async function checkMfaDisable(
  db: Db,
  user: AuthUser,
  input: MfaConfirmRequest,
  ip: string,
  settings: SignInSettings,
): Promise<CodeAttempt> {
  if (await isMfaRequired(db, user, settings)) {
    throw AppError.of('business_rule', MFA_MSG.requiredCannotTurnOff);
  }
  return checkMfaPassword(db, user, input, ip);
}

/** POST /api/auth/mfa/disable: turns two-factor off with the password and a code; every other session ends. */
export async function disableMfa(
  tx: Tx,
  user: AuthUser,
  input: MfaConfirmRequest,
  attempt: CodeAttempt,
  settings: SignInSettings,
): Promise<{ success: true }> {
  await withCode(tx, user, input, attempt, settings, async (tx) => {
    await turnOffMfa(tx, user.userId);
    await revokeAllSessions(tx, user.userId, { except: user.sessionId });
  });
  return { success: true };
}

/** POST /api/auth/mfa/recovery-codes: 10 new recovery codes with the password and a code; the old ones end. */
export async function newRecoveryCodes(
  tx: Tx,
  user: AuthUser,
  input: MfaConfirmRequest,
  attempt: CodeAttempt,
  settings: SignInSettings,
): Promise<RecoveryCodesResponse> {
  const recoveryCodes = await withCode(tx, user, input, attempt, settings, (tx) =>
    replaceRecoveryCodes(tx, user.userId),
  );
  return { recoveryCodes };
}

/** The challenge of a sign-in's code step, and the attempt counted on its own before the transaction. */
export interface CodeStep {
  challenge: { id: string; userId: string };
  attempt: CodeAttempt;
}

export async function countMfaVerify(db: Db, input: MfaVerifyRequest, ip: string): Promise<CodeStep> {
  const challenge = await findChallenge(db, input.challenge, 'sign_in');
  if (!challenge) throw expired();
  const attempt = await countCodeAttempt(db, 'two_factor', challenge.userId, ip);
  return { challenge, attempt };
}

/**
 * POST /api/auth/mfa/verify: the second step of a sign-in. The challenge of `403 mfa_required` and a code; the
 * code, the challenge and the new session in one transaction, so that each works once.
 */
export async function verifyMfa(
  tx: Tx,
  { challenge, attempt }: CodeStep,
  input: MfaVerifyRequest,
  settings: SignInSettings,
): Promise<LoginResponse> {
  const row = await lockMfa(tx, challenge.userId);
  // Turned off (or reset) since the password was checked: that sign-in is over.
  if (!row?.enabled_at) throw expired();
  if (!(await secondFactorOk(tx, challenge.userId, row, input.code, settings))) throw wrongCode();
  if (!(await useChallenge(tx, challenge.id))) throw expired();
  const session = await openPanelSession(tx, await accountOf(tx, challenge.userId), {
    usedMfa: true,
    settings,
  });
  await attempt.release(tx);
  return session;
}

/**
 * The caller's own second factor for a change to someone's sign-in (CONTRACT §3: switching an organization's
 * `requireMfa` on or off, turning off someone's two-factor), counted before the transaction like every typed
 * code (5 per account, 50 per IP in 15 minutes). Nothing is counted without a code: `useOwnCode` refuses that.
 */
export async function countOwnCode(
  db: Db,
  user: AuthUser,
  code: string | undefined,
  ip: string,
): Promise<CodeAttempt | null> {
  return code ? countCodeAttempt(db, 'two_factor', user.userId, ip) : null;
}

/**
 * The caller's own code, in the transaction of what it allows (after the caller's right to it was checked): the
 * caller's two-factor must be on (`422`, with `notOn` as its text), and `code` a code of it now (a 6-digit code
 * of the current time steps, each working once, or a recovery code): none is `400` on `code`, a wrong one
 * `400 invalid_code`; a right one gives its attempt back. A session that signed in with two-factor earlier does
 * not stand in for the code: the code proves the person is at the keyboard now.
 */
export async function useOwnCode(
  tx: Tx,
  user: AuthUser,
  code: string | undefined,
  attempt: CodeAttempt | null,
  settings: SignInSettings,
  notOn: string = MFA_MSG.ownNeeded,
): Promise<void> {
  const row = await lockMfa(tx, user.userId);
  if (!row?.enabled_at) throw AppError.of('business_rule', notOn);
  if (!code || !attempt) throw AppError.invalid({ code: MFA_MSG.ownCodeNeeded }, MFA_MSG.ownCodeNeeded);
  if (!(await secondFactorOk(tx, user.userId, row, code, settings))) throw wrongCode();
  await attempt.release(tx);
}
