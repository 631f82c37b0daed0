import type { Tx } from '../../db/client';
import { AppError } from '../../http/app-error';
import { rateLimitKey } from '../../lib/rate-limit';
import { BlockRateLimiter } from '../../lib/rate-limit-blocks';

/** Calls one integration key may make in a minute when INTEGRATION_RATE_LIMIT_PER_MINUTE is not set. */
export const DEFAULT_INTEGRATION_RATE_LIMIT_PER_MINUTE = 6000;

const WINDOW_SECONDS = 60;

export function integrationRateLimitMessage(limit: number, retryAfter: number): string {
  return `Too many calls with this integration key: at most ${limit} a minute. Try again in ${retryAfter} ${retryAfter === 1 ? 'second' : 'seconds'}.`;
}

/**
 * The calls a process takes from a key's count at once: a fiftieth of the limit, 1 to 1,000. Each running
 * process may let a key pass or miss its limit by less than a block (lib/rate-limit-blocks.ts), so a block is
 * a small share of the limit (2 %); and a process writes the key's row once a block, so a key's calls write
 * it at most 50 times a window per process (under the default, 6,000 a minute: blocks of 120), and never
 * more than once in 1,000 calls however high the limit is set.
 */
export function integrationRateLimitBlock(perMinute: number): number {
  return Math.min(1000, Math.max(1, Math.floor(perMinute / 50)));
}

/**
 * The per-key rate limit of one server process (CONTRACT §9: a rate limit per key, across processes): a fixed
 * one-minute window per key in the database (`rate_limits`, key `integration:<keyId>`), counted in blocks
 * per process, so every process counts against the same figure without writing the row on every call.
 */
export function integrationKeyLimiter(db: Tx, perMinute: number): BlockRateLimiter {
  return new BlockRateLimiter(db, WINDOW_SECONDS, perMinute, integrationRateLimitBlock(perMinute));
}

/**
 * Counts one call of an integration key. Above the limit: `429 rate_limited` with `Retry-After`, the seconds
 * until the window ends.
 */
export async function limitIntegrationKey(limiter: BlockRateLimiter, keyId: string): Promise<void> {
  const retryAfter = await limiter.take(rateLimitKey('integration', keyId));
  if (retryAfter === null) return;
  // The error handler says `details.retryAfter` in `Retry-After`.
  throw AppError.of('rate_limited', integrationRateLimitMessage(limiter.limit, retryAfter), { retryAfter });
}
