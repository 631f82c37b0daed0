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
 * once, each mail with its own code. For the others the subject plays no part.
 */
const ONE_PER_SUBJECT: ReadonlySet<CodePurpose> = new Set(['membership_invitation']);

/**
 * Purposes whose earlier codes stay valid when a new one is mailed, until they expire or one of them is used
 * (issue 33): an invitation or verification sent again must not turn the first mail into "could not be
 * completed" for the person who opens that one. A password reset and an email change keep only the newest:
 * the first changes a credential, the second may name another address.
 */
const KEEPS_EARLIER: ReadonlySet<CodePurpose> = new Set(['email_verification', 'membership_invitation']);

/** At most this many live codes of one purpose (and subject) per account: the oldest go first. */
export const LIVE_CODES_MAX = 5;

/** The codes of one account and purpose that belong together: of the same subject where that counts. */
function siblingsOf(purpose: CodePurpose, subject: string | null) {
  return ONE_PER_SUBJECT.has(purpose) ? sql`and subject is not distinct from ${subject}` : sql``;
}

/** The earlier codes a new one replaces: all of them, or for KEEPS_EARLIER only the dead ones. */
function replacedBy(purpose: CodePurpose, subject: string | null) {
  const dead = KEEPS_EARLIER.has(purpose)
    ? sql`and (expires_at <= now() or failed_attempts >= ${CODE_MAX_FAILURES})`
    : sql``;
  return sql`${siblingsOf(purpose, subject)} ${dead}`;
}

/** Keeps the LIVE_CODES_MAX newest codes of each of these accounts for the purpose (and subject). */
async function dropOldest(tx: Tx, userIds: readonly string[], purpose: CodePurpose, subject: string | null) {
  if (!KEEPS_EARLIER.has(purpose)) return;
  await tx.execute(sql`delete from one_time_codes where id in (
    select id from (
      select id, row_number() over (partition by user_id order by created_at desc, id desc) as n
      from one_time_codes where purpose = ${purpose} and user_id in ${uuidsIn(userIds)}
        ${siblingsOf(purpose, subject)}) ranked
    where n > ${LIVE_CODES_MAX})`);
}

/** Wrong guesses after which a code is dead whatever its expiry (a 6-digit code must not be walked). */
export const CODE_MAX_FAILURES = 10;

function hashCode(userId: string, purpose: CodePurpose, code: string): Buffer {
  return createHash('sha256').update(`${purpose}:${userId}:${code}`).digest();
}

/**
 * Issues a fresh 6-digit code (and for a reset link a 256-bit token). An earlier code of the same purpose
 * stops working, except for KEEPS_EARLIER purposes, where it works on until it expires or a code is used.
 * Only hashes are stored.
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
  await dropOldest(tx, [input.userId], input.purpose, subject);
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
  await dropOldest(tx, [...codes.keys()], input.purpose, subject);
  return codes;
}

/**
 * Is this a live code (and token) of the user? Answers the code's subject when it is, null when not. A wrong
 * code counts against every live code it was compared with. `consume` deletes a right one, and the codes of
 * the same purpose (and subject) mailed beside it: call it in the transaction of the change the code allows,
 * so that it is used once and the mails sent with it end with it. `subject`, when given, names which of the
 * user's codes of this purpose is meant (the organization of an invitation).
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
  const live = await rows<{ id: string; code_hash: string; subject: string | null }>(
    tx,
    sql`select id, code_hash, subject from one_time_codes
        where user_id = ${input.userId} and purpose = ${input.purpose}
          and expires_at > now() and failed_attempts < ${CODE_MAX_FAILURES}
          ${input.token === undefined ? sql`` : sql`and token_hash = ${hashToken(input.token)}`}
          ${input.subject === undefined ? sql`` : sql`and subject = ${input.subject}`}
        order by created_at desc, id desc limit ${LIVE_CODES_MAX}
        ${input.consume ? sql`for update` : sql``}`,
  );
  if (live.length === 0) return null;
  const given = hashCode(input.userId, input.purpose, input.code);
  // Every candidate is compared, so that the time taken does not tell which one matched.
  const matches = live.map((row) => {
    const expected = Buffer.from(row.code_hash, 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  const row = live[matches.indexOf(true)];
  if (!row) {
    await tx.execute(sql`update one_time_codes set failed_attempts = failed_attempts + 1
      where id in ${uuidsIn(live.map((r) => r.id))}`);
    return null;
  }
  if (input.consume) {
    await tx.execute(sql`delete from one_time_codes where user_id = ${input.userId}
      and purpose = ${input.purpose} ${siblingsOf(input.purpose, row.subject)}`);
  }
  return { subject: row.subject };
}

export const CODE_WINDOW_SECONDS = 15 * 60;
/** Code guesses per account (and per purpose) and per IP in one window; more answer 429. */
export const CODE_ATTEMPTS_PER_ACCOUNT = 5;
export const CODE_ATTEMPTS_PER_IP = 50;
/** Mails (reset, resend) per address and per IP in one window; more are silently not sent. */
export const MAIL_REQUESTS_PER_EMAIL = 3;
export const MAIL_REQUESTS_PER_IP = 20;

/** A counted code attempt; `release` gives it back (on the `Db`, or in the transaction of the change it allowed). */
export interface CodeAttempt {
  release: (db: Tx) => Promise<void>;
}

/**
 * Counts one code attempt for the account and the IP before the code is looked at (like sign in), on its own
 * (the step before a write route's transaction): a refused attempt counts. The returned `release` gives a
 * right attempt back, so that only wrong guesses use the allowance.
 */
export async function countCodeAttempt(
  db: Tx,
  purpose: CodePurpose | 'two_factor',
  account: string,
  ip: string,
): Promise<CodeAttempt> {
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
    release: async (to) => {
      await releaseRateLimit(to, accountKey);
      await releaseRateLimit(to, ipKey);
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
