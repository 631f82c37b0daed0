import { isIPv4, isIPv6 } from 'node:net';
import { APP_MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { clearRateLimit, rateLimitKey, releaseRateLimit, takeRateLimitBlock } from '../../lib/rate-limit';

/**
 * How many wrong passwords sign-in allows (CONTRACT §3, docs/SECURITY.md "Sign-in limits", decision 003):
 * per account and address together, with free failures, then growing waits, then a refusal; per address
 * across accounts; and a per-account ceiling across all addresses that takes thousands of them to reach.
 */
export interface SignInLimits {
  /** The window of every sign-in counter: 15 minutes. */
  windowSeconds: number;
  /** Wrong passwords an account and an address may give one after the other, without waiting. */
  pairFreeFailures: number;
  /** The wait after the last free failure; each failure after it doubles the wait. */
  pairFirstWaitSeconds: number;
  /** After this many failures the pair is refused until a window has passed since its last one. */
  pairMaxFailures: number;
  /** Attempts one address may make in a window, whatever the accounts (fixed window). */
  attemptsPerAddress: number;
  /** Wrong passwords one account may take in a window from all addresses together (fixed window). */
  accountCeiling: number;
}

export const SIGN_IN_LIMITS: SignInLimits = {
  windowSeconds: 15 * 60,
  pairFreeFailures: 5,
  pairFirstWaitSeconds: 30,
  pairMaxFailures: 10,
  attemptsPerAddress: 100,
  accountCeiling: 20_000,
};

/** The wait, in seconds, after a pair's `failures`-th failure in a row (0: none; a window: refused). */
export function pairWaitSeconds(failures: number, limits: SignInLimits = SIGN_IN_LIMITS): number {
  if (failures < limits.pairFreeFailures) return 0;
  if (failures >= limits.pairMaxFailures) return limits.windowSeconds;
  return limits.pairFirstWaitSeconds * 2 ** (failures - limits.pairFreeFailures);
}

/**
 * The address a limit counts: an IPv4 address as it is (also when written as IPv6, `::ffff:a.b.c.d`); an
 * IPv6 address by its /64, which one host or one home owns whole. Anything else (a proxy's header that is
 * not an address) as it is written.
 */
export function signInAddress(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, '');
  if (isIPv4(address) || !isIPv6(address)) return address;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

const accountKey = (email: string) => rateLimitKey('login', 'account', email);
/** Every pair of one account starts with this (a reset clears them all). */
const pairPrefix = (email: string) => `${rateLimitKey('login', 'pair', email)}:`;
const pairKey = (email: string, address: string) => pairPrefix(email) + rateLimitKey(address);
const addressKey = (address: string) => rateLimitKey('login', 'ip', address);

/** The `429` of a refused attempt: the wait in the message, in `details.retryAfter` and in `Retry-After`. */
export function tooManySignIns(seconds: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(seconds));
  return AppError.of('rate_limited', APP_MSG.tooManyAttempts(retryAfter), { retryAfter });
}

/**
 * Takes one attempt of a pair (its row: `window_started_at` the time of its last attempt, `count` the
 * attempts in a row, forgotten a window after the last one), if the pair may try now. Refused: the seconds
 * until it may. A refused attempt is not counted: it waits on the pair alone and tries no password.
 */
async function takePairAttempt(db: Tx, key: string, limits: SignInLimits): Promise<number | null> {
  const window = sql`make_interval(secs => ${limits.windowSeconds})`;
  const wait = sql`make_interval(secs => ${limits.pairFirstWaitSeconds} * power(2, r.count - ${limits.pairFreeFailures}))`;
  const taken = await rows<{ count: number }>(
    db,
    sql`insert into rate_limits as r (key, window_started_at, count) values (${key}, now(), 1)
      on conflict (key) do update set
        count = case when r.window_started_at <= now() - ${window} then 1 else r.count + 1 end,
        window_started_at = now()
      where r.window_started_at <= now() - ${window}
        or r.count < ${limits.pairFreeFailures}
        or (r.count < ${limits.pairMaxFailures} and r.window_started_at + ${wait} <= now())
      returning r.count`,
  );
  if (taken.length > 0) return null;
  const [left] = await rows<{ seconds: number | string }>(
    db,
    sql`select extract(epoch from r.window_started_at
          + case when r.count >= ${limits.pairMaxFailures} then ${window} else ${wait} end - now()) as seconds
        from rate_limits r where r.key = ${key}`,
  );
  return Number(left?.seconds ?? 1);
}

/** A counted sign-in attempt; `succeeded` is called when its password was right. */
export interface SignInAttempt {
  succeeded: (db: Tx) => Promise<void>;
}

/**
 * Counts one sign-in attempt before its password is checked (concurrent guesses cannot slip past: each
 * counter is taken by one atomic statement), or refuses it with `429` and the wait:
 * 1. the address (an IPv6 /64), across accounts: `attemptsPerAddress` a window, every attempt counted;
 * 2. the account, from all addresses: `accountCeiling` passwords checked a window;
 * 3. the account and the address together: `pairFreeFailures` at once, then waits from
 *    `pairFirstWaitSeconds` doubling, then none until a window after the last.
 * An attempt refused by the pair or the address is given back to the account's ceiling: only passwords
 * checked count there, so one address hammering one account cannot raise the ceiling for everyone. A right
 * password clears its pair and gives its attempt back to the address and the ceiling; the ceiling keeps the
 * failures from elsewhere.
 */
export async function countSignInAttempt(
  db: Tx,
  email: string,
  ip: string,
  limits: SignInLimits = SIGN_IN_LIMITS,
): Promise<SignInAttempt> {
  const address = signInAddress(ip);
  const keys = { address: addressKey(address), account: accountKey(email), pair: pairKey(email, address) };
  const [byAddress, byAccount] = await Promise.all([
    takeRateLimitBlock(db, keys.address, limits.windowSeconds, limits.attemptsPerAddress, 1),
    takeRateLimitBlock(db, keys.account, limits.windowSeconds, limits.accountCeiling, 1),
  ]);
  const pairWait =
    byAddress.granted && byAccount.granted ? await takePairAttempt(db, keys.pair, limits) : null;
  if (!byAddress.granted || !byAccount.granted || pairWait !== null) {
    if (byAccount.granted) await releaseRateLimit(db, keys.account);
    const waits = [
      byAddress.granted ? 0 : byAddress.msLeft / 1000,
      byAccount.granted ? 0 : byAccount.msLeft / 1000,
      pairWait ?? 0,
    ];
    throw tooManySignIns(Math.max(...waits));
  }
  return {
    succeeded: async (to) => {
      await Promise.all([
        clearRateLimit(to, keys.pair),
        releaseRateLimit(to, keys.address),
        releaseRateLimit(to, keys.account),
      ]);
    },
  };
}

/** A password reset that sets a new password: the account's ceiling and every pair of it start again. */
export async function clearSignInLimits(db: Tx, email: string): Promise<void> {
  const prefix = pairPrefix(email);
  await db.execute(
    sql`delete from rate_limits where key = ${accountKey(email)} or starts_with(key, ${prefix})`,
  );
}

const minutes = (seconds: number) => (seconds < 60 ? `${seconds} s` : `${seconds / 60} min`);

/** The rule in the API document's words (POST /api/auth/login), from the figures above. */
export function signInLimitsNote(limits: SignInLimits = SIGN_IN_LIMITS): string {
  const waits = Array.from({ length: limits.pairMaxFailures - limits.pairFreeFailures }, (_, i) =>
    minutes(pairWaitSeconds(limits.pairFreeFailures + i, limits)),
  );
  const window = minutes(limits.windowSeconds);
  const addresses = Math.ceil(limits.accountCeiling / limits.pairMaxFailures).toLocaleString('en-US');
  return `Wrong passwords are limited per account and address together (an IPv6 address counts by its /64): ${limits.pairFreeFailures} failures in a row are answered at once, then each further attempt waits ${waits.join(', ')} in turn after the last failure, and after ${limits.pairMaxFailures} the pair is refused until ${window} after its last failure; a right password clears the pair. Failures from other addresses therefore never refuse the right password from one's own, up to a ceiling per account of ${limits.accountCeiling.toLocaleString('en-US')} wrong passwords in ${window} from all addresses together, which takes at least ${addresses} addresses at their pair's limit within those ${window}. One address may make ${limits.attemptsPerAddress} attempts in ${window}, whatever the accounts. A refused attempt is \`429 rate_limited\` with \`Retry-After\` (seconds, also in \`details.retryAfter\`) and the wait in the message, even with the right password.`;
}
