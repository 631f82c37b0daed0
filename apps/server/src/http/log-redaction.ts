import type { FastifyRequest } from 'fastify';
import pino from 'pino';

/** What a log line shows instead of a value it must not keep. */
export const REDACTED = '[redacted]';

/**
 * Query parameters whose values a log line may show: page numbers, sizes, sort keys, flags, ids, dates,
 * choices and opaque cursors. Any other parameter (`email`, `search`, one added later) is logged with
 * `[redacted]` as its value: a new parameter is private until someone decides otherwise, here.
 */
const LOGGED_QUERY_PARAMETERS = new Set([
  'page',
  'limit',
  'key',
  'order',
  'pageToken',
  'licenses',
  'subOrganizations',
  'credits',
  'permissionsAndRole',
  'withCredits',
  'scope',
  'status',
  'from',
  'to',
  'days',
  'licenseType',
  'organizationId',
  'organization',
  'actorId',
  'action',
]);

/**
 * Paths that carry a secret: the links mailed with a token (`/password/token/{userId}/{token}`,
 * `/email/confirm/{userId}/{token}`), which the server answers with the web app. The token goes.
 */
const SECRET_PATH = /^(\/(?:password\/token|email\/confirm)\/[^/?#]*\/)[^?#]*/;

/**
 * A request's URL as a log line may keep it: the secret segments of the mailed links and the values of
 * every query parameter not listed above replaced by `[redacted]`.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(SECRET_PATH, `$1${REDACTED}`);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // Not valid percent-encoding: not one of the listed names.
      }
      return LOGGED_QUERY_PARAMETERS.has(decoded) ? pair : `${name}=${REDACTED}`;
    })
    .join('&');
  return `${path}?${query}`;
}

interface ErrorWithValues extends Error {
  params?: unknown;
  detail?: unknown;
  cause?: unknown;
}

/**
 * An error as a log line may keep it. A failed query (drizzle's `DrizzleQueryError`) carries its
 * parameters (emails, names, password and token hashes) in `params` and in its message and stack; a
 * PostgreSQL error carries values in `detail` ("Key (email)=(…) already exists."). Those go, through the
 * chain of causes; the SQL text, the codes and the stack stay.
 */
export function redactError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const source = error as ErrorWithValues;
  const hasParams = 'params' in source;
  const hasDetail = typeof source.detail === 'string';
  const cause = source.cause === undefined ? undefined : redactError(source.cause, depth + 1);
  if (!hasParams && !hasDetail && cause === source.cause) return error;
  const copy = Object.create(Object.getPrototypeOf(error)) as ErrorWithValues;
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (descriptor) Object.defineProperty(copy, key, descriptor);
  }
  if (hasParams) {
    const message = source.message.replace(/\nparams: [\s\S]*$/, `\nparams: ${REDACTED}`);
    copy.params = REDACTED;
    copy.message = message;
    if (typeof source.stack === 'string') copy.stack = source.stack.replace(source.message, message);
  }
  if (hasDetail) copy.detail = REDACTED;
  if (cause !== source.cause) copy.cause = cause;
  return copy;
}

/**
 * The serializers of the request log (Fastify's pino logger). `req` is Fastify's own minus what must not
 * be kept: the URL through `redactUrl`; no headers (so never `Authorization` or a cookie) and no body are
 * logged, by Fastify's or by these. `err` is pino's, on the error through `redactError`.
 */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  err(error: unknown) {
    return pino.stdSerializers.err(redactError(error) as Error);
  },
};
