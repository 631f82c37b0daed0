import { setTimeout as sleep } from 'node:timers/promises';

/**
 * SQLSTATEs of a connection that is gone or cannot be had: class 08 (connection exception); 57P01–57P05
 * (the backend was terminated: `pg_terminate_backend`, a shutdown, a crash, a restart, an idle timeout);
 * 53300 (too many connections). Not 57014 (a cancelled statement): that one is no outage.
 */
const UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|57P0[1-5]|53300)$/;

/** Socket errors of a connection that was reset or could not be opened (a failover, a restart). */
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres's own words for a connection that ended or was never made; it gives them no code. */
const DRIVER_MESSAGE = /^Connection terminated|is not queryable$|^timeout exceeded when trying to connect/;

/**
 * Did the work fail because the database connection was lost or could not be opened (rather than because
 * of what it asked)? Looks through the wrappers drizzle puts around the driver's error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGE.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Attempts of a statement outside a transaction; the pauses between them add up to about half a second. */
export const STATEMENT_ATTEMPTS = 4;

/**
 * Runs `run` again, on another connection of the pool, when its connection was lost: a few times, with
 * growing jittered pauses (a terminated backend is replaced at once; a failover takes longer, and then the
 * error reaches the error handler: `503` with `Retry-After`). Only for work that may run twice: a read, or
 * one of the single-statement writes outside a transaction (a session's sliding expiry, a rate-limit
 * counter, a key's last use), where a second run changes nothing that matters.
 */
export async function retryWhileUnavailable<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= STATEMENT_ATTEMPTS || !isDatabaseUnavailable(error)) throw error;
      await sleep(25 * 4 ** (attempt - 1) * (0.5 + Math.random()));
    }
  }
}
