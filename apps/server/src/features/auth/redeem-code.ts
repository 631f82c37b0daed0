import { APP_MSG, MSG } from '@allot/domain/messages';
import type { Db, Tx } from '../../db/client';
import { writeTransaction } from '../../db/transaction';
import { AppError } from '../../http/app-error';
import { type CodePurpose, countCodeAttempt, verifyCode } from './one-time-codes';
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

/**
 * The steps of every code a person types (CONTRACT §3): counted against the account and the IP before it
 * is looked at; checked; a password asked for when the account has none (the code stays usable); the
 * password hashed outside the transaction; then the code used up in the transaction of the change it
 * allows, so that it works once. A right code gives its attempt back.
 */
export async function redeemCode<T>(
  db: Db,
  input: CodeToRedeem,
  apply: (
    tx: Tx,
    redeemed: { userId: string; subject: string | null; passwordHash: string | null },
  ) => Promise<T>,
): Promise<T> {
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
    await attempt.release();
    throw AppError.of('password_required', APP_MSG.passwordRequired, {
      fields: { password: MSG.required },
    });
  }
  // Checked before the (deliberately slow) hash, so that wrong codes cost the server nothing.
  const passwordHash = input.needsPassword && input.password ? await hashPassword(input.password) : null;
  const result = await writeTransaction(db, async (tx) => {
    const redeemed = await verifyCode(tx, { ...code, consume: true });
    if (!redeemed) throw input.refused();
    return apply(tx, { userId, subject: redeemed.subject, passwordHash });
  });
  await attempt.release();
  return result;
}
