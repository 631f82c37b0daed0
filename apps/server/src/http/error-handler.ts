import { type ErrorCode, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@allot/domain/errors';
import { APP_MSG } from '@allot/domain/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/database-unavailable';
import { CommitOutcomeUnknown, isConcurrencyConflict } from '../db/transaction';
import { AppError } from './app-error';
import { settleSessionInQuery } from './authenticate';
import { redactUrl } from './log-redaction';
import { setSecurityHeaders } from './security-headers';

/** Fastify's own refusals of a request it could not read, in our words. */
function clientError(status: number): { error: ErrorCode; message: string } {
  if (status === 404) return { error: 'not_found', message: APP_MSG.notFound };
  if (status === 413) return { error: 'payload_too_large', message: APP_MSG.bodyTooLarge };
  if (status === 415) return { error: 'invalid_input', message: APP_MSG.notJson };
  if (status === 429) return { error: 'rate_limited', message: APP_MSG.tooManyRequests };
  return { error: 'invalid_input', message: APP_MSG.unreadableRequest };
}

/** `frameworkErrors`: a path that cannot be decoded (`%zz`) or a path parameter beyond any length. */
export function invalidPath(_error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  request.log.info({ url: redactUrl(request.url) }, 'malformed path');
  setSecurityHeaders(reply);
  return reply.status(400).send({ error: 'invalid_input', message: APP_MSG.invalidPath });
}

/** Maps every thrown error to `{error, message, details?}`; never leaks a stack or SQL text. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const pending = request.sessionInQuery;
    if (pending && !pending.user) return answerUnauthenticatedFirst(error, request, reply);
    return answerError(error, request, reply);
  });
}

/**
 * A `sessionInQuery` route that failed before its read found the session (http/authenticate.ts): a caller
 * whose session is not live is told `401`, whatever else went wrong, as when the session is looked up first.
 */
async function answerUnauthenticatedFirst(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const unauthorized = AppError.unauthorized(request.routeOptions.config?.messages?.unauthorized);
  if (error instanceof AppError && error.code === 'unauthorized')
    return answerError(unauthorized, request, reply);
  try {
    return answerError((await settleSessionInQuery(request)) ? error : unauthorized, request, reply);
  } catch (lookupError) {
    return answerError(lookupError as FastifyError | AppError, request, reply);
  }
}

/** A route's own words for some errors (route config `messages`). */
export type RouteMessages = { invalid?: string; unauthorized?: string; internal?: string } | undefined;

/**
 * The status and body an `AppError` is answered with, in the route's own words where it has them: the one
 * mapping, for thrown errors and for the refusals an idempotent write keeps as its answer.
 */
export function errorAnswer(
  error: AppError,
  own?: RouteMessages,
): { status: number; body: ReturnType<AppError['body']> } {
  const body = error.body();
  if (error.code === 'internal' && own?.internal) body.message = own.internal;
  if (error.code === 'invalid_input' && own?.invalid) body.message = own.invalid;
  return { status: error.status, body };
}

/** The answer of a thrown error (`registerErrorHandler`); a feature's own handler may decide first. */
export function answerError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const own = request.routeOptions.config?.messages;
  // A service may wrap what it did not expect as `internal` (an import's failure): an outage stays a 503.
  const unexpected = error instanceof AppError && error.code === 'internal' ? error.cause : error;
  if (unexpected instanceof CommitOutcomeUnknown || isDatabaseUnavailable(unexpected)) {
    // The database could not be reached even after the retries (a restart, a failover): the caller may
    // send the request again in a moment. At COMMIT the change may have been saved: the message says so.
    request.log.error({ err: unexpected }, 'database unavailable');
    const message =
      unexpected instanceof CommitOutcomeUnknown ? APP_MSG.commitOutcomeUnknown : APP_MSG.databaseUnavailable;
    reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return reply.status(503).send({ error: 'unavailable', message });
  }
  if (error instanceof AppError) {
    // An `internal` one stands for an unexpected error (its cause): logged, never answered.
    if (error.status >= 500) request.log.error({ err: error.cause ?? error }, error.message);
    const { status, body } = errorAnswer(error, own);
    // A `429` that knows its wait (`details.retryAfter`, seconds) says it in the header too.
    const retryAfter = error.code === 'rate_limited' ? error.details?.retryAfter : undefined;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    return reply.status(status).send(body);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
      // The body (or query) as a whole is not an object: nothing names a field.
      fields[field] ??= field === '_' ? APP_MSG.bodyNotObject : (issue.message ?? APP_MSG.invalidInput);
    }
    const first = Object.values(fields)[0];
    return reply.status(400).send({
      error: 'invalid_input',
      message: own?.invalid ?? (Object.keys(fields).length === 1 && first ? first : APP_MSG.invalidInput),
      details: { fields },
    });
  }
  // Fastify's own client errors: malformed JSON, wrong content type, body too large.
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // The code, not the error: a JSON parser's message quotes the body it could not read.
    request.log.info({ code: error.code, statusCode: status }, 'request refused before the route');
    const body = clientError(status);
    if (status === 400 && own?.invalid) body.message = own.invalid;
    return reply.status(status).send(body);
  }
  if (isConcurrencyConflict(error)) {
    // writeTransaction ran it again and again and it still collided: the caller may try once more.
    request.log.warn({ err: error }, 'concurrent changes still colliding after retries');
    return reply.status(409).send({ error: 'conflict', message: APP_MSG.concurrentChange });
  }
  request.log.error({ err: error }, 'unexpected error');
  return reply.status(500).send({ error: 'internal', message: own?.internal ?? APP_MSG.internal });
}
