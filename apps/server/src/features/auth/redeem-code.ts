import { APP_MSG, MSG } from '@allot/domain/messages';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../http/app-error';
import { type CodeAttempt, type CodePurpose, countCodeAttempt, verifyCode } from './one-time-codes';
import { hashPassword } from './passwords';

export interface CodeToRedeem {
  purpose: CodePurpose;
  /** Whose code guesses are counted: the address or id the caller named (normalised by the limiter). */
  account: string;
  ip: string;
  /** The account the code belongs to; null when the caller named none that exists (refused alike). */
  userId: string | null;
  code: string;
  token?: string;
  subject?: string;
  /** The account has no password yet (an invitation never finished): the code must come with one. */
  needsPassword: boolean;
  password?: string;
  refused: () => AppError;
}

/** A code `checkCode` found right, to be used up by `redeemCode`. */
export interface CheckedCode {
  code: { userId: string; purpose: CodePurpose; code: string; token?: string; subject?: string };
  passwordHash: string | null;
  attempt: CodeAttempt;
  refused: () => AppError;
}

/**
 * The steps of every code a person types (CONTRACT §3) before its transaction, on their own (a write route's
 * `before`): counted against the account and the IP before it is looked at; checked (a wrong guess is
 * counted against the code); a password asked for when the account has none (the code stays usable); the
 * password hashed, no connection held meanwhile.
 */
export async function checkCode(db: Db, input: CodeToRedeem): Promise<CheckedCode> {
  const attempt = await countCodeAttempt(db, input.purpose, input.account, input.ip);
  const { userId } = input;
  if (!userId) throw input.refused();
  const code = {
    userId,
    purpose: input.purpose,
    code: input.code,
    ...(input.token === undefined ? {} : { token: input.token }),
    ...(input.subject === undefined ? {} : { subject: input.subject }),
  };
  if (!(await verifyCode(db, { ...code, consume: false }))) throw input.refused();
  if (input.needsPassword && !input.password) {
    await attempt.release(db);
    throw AppError.of('password_required', APP_MSG.passwordRequired, {
      fields: { password: MSG.required },
    });
  }
  // Checked before the (deliberately slow) hash, so that wrong codes cost the server nothing.
  const passwordHash = input.needsPassword && input.password ? await hashPassword(input.password) : null;
  return { code, passwordHash, attempt, refused: input.refused };
}

/**
 * The code `checkCode` found right, used up in the transaction of the change it allows, so that it works
 * once; the attempt is given back in that transaction.
 */
export async function redeemCode<T>(
  tx: Tx,
  checked: CheckedCode,
  apply: (
    tx: Tx,
    redeemed: { userId: string; subject: string | null; passwordHash: string | null },
  ) => Promise<T>,
): Promise<T> {
  const redeemed = await verifyCode(tx, { ...checked.code, consume: true });
  if (!redeemed) throw checked.refused();
  const result = await apply(tx, {
    userId: checked.code.userId,
    subject: redeemed.subject,
    passwordHash: checked.passwordHash,
  });
  await checked.attempt.release(tx);
  return result;
}
