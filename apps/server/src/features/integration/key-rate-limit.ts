import { sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { hitRateLimit, rateLimitKey } from '../../lib/rate-limit';

/** Calls one integration key may make in a minute when INTEGRATION_RATE_LIMIT_PER_MINUTE is not set. */
export const DEFAULT_INTEGRATION_RATE_LIMIT_PER_MINUTE = 6000;

const WINDOW_SECONDS = 60;

export function integrationRateLimitMessage(limit: number, retryAfter: number): string {
  return `Too many calls with this integration key: at most ${limit} a minute. Try again in ${retryAfter} ${retryAfter === 1 ? 'second' : 'seconds'}.`;
}

/**
 * Counts one call of an integration key (CONTRACT §9: a rate limit per key, across processes): a fixed
 * one-minute window in the database (`lib/rate-limit.ts`), so every server process counts against the same
 * figure. Above the limit: `429 rate_limited` with `Retry-After`, the seconds until the window ends.
 */
export async function limitIntegrationKey(
  db: Tx,
  keyId: string,
  perMinute: number,
  reply: FastifyReply,
): Promise<void> {
  const key = rateLimitKey('integration', keyId);
  const count = await hitRateLimit(db, key, WINDOW_SECONDS);
  if (count <= perMinute) return;
  const [row] = await rows<{ seconds: number | string | null }>(
    db,
    sql`select ceil(extract(epoch from window_started_at + make_interval(secs => ${WINDOW_SECONDS}) - now())) as seconds
        from rate_limits where key = ${key}`,
  );
  const retryAfter = Math.min(WINDOW_SECONDS, Math.max(1, Number(row?.seconds ?? WINDOW_SECONDS)));
  reply.header('retry-after', String(retryAfter));
  throw AppError.of('rate_limited', integrationRateLimitMessage(perMinute, retryAfter), { retryAfter });
}
