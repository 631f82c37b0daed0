import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam, uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { isUuid } from '../../lib/ids';
import { hitRateLimit, rateLimitKey, releaseRateLimit } from '../../lib/rate-limit';
import { hashToken, newToken } from './tokens';

export type CodePurpose = 'password_reset' | 'email_verification' | 'membership_invitation' | 'email_change';

/**
 * Purposes whose codes live one per subject: an account may hold invitations of several organizations at
 * once, each mail with its own code. For the others a new code replaces every earlier one (a second email
 * change replaces the first, whatever address it named).
 */
const ONE_PER_SUBJECT: ReadonlySet<CodePurpose> = new Set(['membership_invitation']);

/** The earlier codes a new one replaces. */
function replacedBy(purpose: CodePurpose, subject: string | null) {
  return ONE_PER_SUBJECT.has(purpose) ? sql`and subject is not distinct from ${subject}` : sql``;
}

/** Wrong guesses after which a code is dead whatever its expiry (a 6-digit code must not be walked). */
export const CODE_MAX_FAILURES = 10;

function hashCode(userId: string, purpose: CodePurpose, code: string): Buffer {
  return createHash('sha256').update(`${purpose}:${userId}:${code}`).digest();
}

/**
 * Issues a fresh 6-digit code (and for a reset link a 256-bit token), replacing any earlier code of the
 * same purpose: only the newest mail works. Only hashes are stored.
 */
export async function issueCode(
  tx: Tx,
  input: {
    userId: string;
    purpose: CodePurpose;
    lifetimeMinutes: number;
    withToken?: boolean;
    subject?: string | null;
  },
): Promise<{ code: string; token: string | null }> {
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const token = input.withToken ? newToken() : null;
  const subject = input.subject ?? null;
  await tx.execute(
    sql`delete from one_time_codes where user_id = ${input.userId} and purpose = ${input.purpose}
        ${replacedBy(input.purpose, subject)}`,
  );
  await tx.execute(sql`
    insert into one_time_codes (user_id, purpose, code_hash, token_hash, subject, expires_at)
    values (${input.userId}, ${input.purpose}, ${hashCode(input.userId, input.purpose, code).toString('hex')},
      ${token ? hashToken(token) : null}, ${subject}, now() + make_interval(mins => ${input.lifetimeMinutes}))`);
  return { code, token };
}

/** issueCode for many users at once (imports): one delete and one insert, a fresh code per user. */
export async function issueCodes(
  tx: Tx,
  input: { userIds: readonly string[]; purpose: CodePurpose; lifetimeMinutes: number; subject?: string },
): Promise<Map<string, string>> {
  const subject = input.subject ?? null;
  const codes = new Map<string, string>();
  if (input.userIds.length === 0) return codes;
  for (const userId of input.userIds) codes.set(userId, randomInt(0, 1_000_000).toString().padStart(6, '0'));
  const records = [...codes].map(([userId, code]) => ({
    user_id: userId,
    code_hash: hashCode(userId, input.purpose, code).toString('hex'),
  }));
  await tx.execute(sql`delete from one_time_codes where purpose = ${input.purpose}
    and user_id in ${uuidsIn([...codes.keys()])} ${replacedBy(input.purpose, subject)}`);
  await tx.execute(sql`
    insert into one_time_codes (user_id, purpose, code_hash, subject, expires_at)
    select user_id, ${input.purpose}, code_hash, ${subject}, now() + make_interval(mins => ${input.lifetimeMinutes})
    from json_to_recordset(${jsonParam(records)}) as x(user_id uuid, code_hash text)`);
  return codes;
}

/**
 * Is this the live code (and token) of the user? Answers the code's subject when it is, null when not. A
 * wrong code counts against the code. `consume` deletes a right one: call it in the transaction of the
 * change the code allows, so it is used once. `subject`, when given, names which of the user's codes of
 * this purpose is meant (the organization of an invitation).
 */
export async function verifyCode(
  tx: Tx,
  input: {
    userId: string;
    purpose: CodePurpose;
    code: string;
    token?: string;
    subject?: string;
    consume: boolean;
  },
): Promise<{ subject: string | null } | null> {
  if (!isUuid(input.userId) || !/^\d{6}$/.test(input.code)) return null;
  const [row] = await rows<{ id: string; code_hash: string; subject: string | null }>(
    tx,
    sql`select id, code_hash, subject from one_time_codes
        where user_id = ${input.userId} and purpose = ${input.purpose}
          and expires_at > now() and failed_attempts < ${CODE_MAX_FAILURES}
          ${input.token === undefined ? sql`` : sql`and token_hash = ${hashToken(input.token)}`}
          ${input.subject === undefined ? sql`` : sql`and subject = ${input.subject}`}
        order by created_at desc limit 1
        ${input.consume ? sql`for update` : sql``}`,
  );
  if (!row) return null;
  const expected = Buffer.from(row.code_hash, 'hex');
  const given = hashCode(input.userId, input.purpose, input.code);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await tx.execute(
      sql`update one_time_codes set failed_attempts = failed_attempts + 1 where id = ${row.id}`,
    );
    return null;
  }
  if (input.consume) await tx.execute(sql`delete from one_time_codes where id = ${row.id}`);
  return { subject: row.subject };
}

export const CODE_WINDOW_SECONDS = 15 * 60;
/** Code guesses per account (and per purpose) and per IP in one window; more answer 429. */
export const CODE_ATTEMPTS_PER_ACCOUNT = 5;
export const CODE_ATTEMPTS_PER_IP = 50;
/** Mails (reset, resend) per address and per IP in one window; more are silently not sent. */
export const MAIL_REQUESTS_PER_EMAIL = 3;
export const MAIL_REQUESTS_PER_IP = 20;

/**
 * Counts one code attempt for the account and the IP before the code is looked at (like sign in).
 * The returned `release` gives a right attempt back, so that only wrong guesses use the allowance.
 */
export async function countCodeAttempt(
  db: Tx,
  purpose: CodePurpose | 'two_factor',
  account: string,
  ip: string,
): Promise<{ release: () => Promise<void> }> {
  const accountKey = rateLimitKey('code', purpose, account);
  const ipKey = rateLimitKey('code', 'ip', ip);
  const [byAccount, byIp] = await Promise.all([
    hitRateLimit(db, accountKey, CODE_WINDOW_SECONDS),
    hitRateLimit(db, ipKey, CODE_WINDOW_SECONDS),
  ]);
  if (byAccount > CODE_ATTEMPTS_PER_ACCOUNT || byIp > CODE_ATTEMPTS_PER_IP) {
    throw AppError.of('rate_limited', APP_MSG.tooManyCodeAttempts);
  }
  return {
    release: async () => {
      await Promise.all([releaseRateLimit(db, accountKey), releaseRateLimit(db, ipKey)]);
    },
  };
}

/** May another mail go to this address from this IP? Over the limit the caller answers alike and sends nothing. */
export async function mayRequestMail(db: Tx, kind: string, email: string, ip: string): Promise<boolean> {
  const [byEmail, byIp] = await Promise.all([
    hitRateLimit(db, rateLimitKey(kind, 'email', email), CODE_WINDOW_SECONDS),
    hitRateLimit(db, rateLimitKey(kind, 'ip', ip), CODE_WINDOW_SECONDS),
  ]);
  return byEmail <= MAIL_REQUESTS_PER_EMAIL && byIp <= MAIL_REQUESTS_PER_IP;
}
