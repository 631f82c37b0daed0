import { MFA_CHALLENGE_MINUTES, MFA_SETUP_CHALLENGE_MINUTES } from '@allot/domain/mfa';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { hashToken, newToken } from './tokens';

/** `sign_in`: the code step of `403 mfa_required`; `setup`: the enrolment of `403 mfa_setup_required`. */
export type ChallengeKind = 'sign_in' | 'setup';

const MINUTES: Record<ChallengeKind, number> = {
  sign_in: MFA_CHALLENGE_MINUTES,
  setup: MFA_SETUP_CHALLENGE_MINUTES,
};

/**
 * A challenge for an account whose password was just right: 256 random bits, of which only the SHA-256 is
 * kept, bound to the account, short-lived. The account's dead challenges go at the same time.
 */
export async function issueChallenge(db: Tx, userId: string, kind: ChallengeKind): Promise<string> {
  const token = newToken();
  await db.execute(sql`delete from mfa_challenges where user_id = ${userId} and expires_at <= now()`);
  await db.execute(sql`insert into mfa_challenges (token_hash, user_id, kind, expires_at)
    values (${hashToken(token)}, ${userId}, ${kind}, now() + make_interval(mins => ${MINUTES[kind]}))`);
  return token;
}

/** The live challenge of this kind behind a token, or null (unknown, used, expired, another kind). */
export async function findChallenge(
  db: Tx,
  token: string,
  kind: ChallengeKind,
): Promise<{ id: string; userId: string } | null> {
  const [row] = await rows<{ id: string; user_id: string }>(
    db,
    sql`select id, user_id from mfa_challenges
        where token_hash = ${hashToken(token)} and kind = ${kind} and expires_at > now()`,
  );
  return row ? { id: row.id, userId: row.user_id } : null;
}

/** Uses a challenge up, in the transaction of what it allowed: false when another request used it first. */
export async function useChallenge(tx: Tx, id: string): Promise<boolean> {
  const used = await rows<{ id: string }>(
    tx,
    sql`delete from mfa_challenges where id = ${id} and expires_at > now() returning id`,
  );
  return used.length > 0;
}
