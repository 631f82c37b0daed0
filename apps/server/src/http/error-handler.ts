import { APP_MSG } from '@allot/domain/messages';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isConcurrencyConflict } from '../db/transaction';
import { AppError } from './app-error';

/** Maps every thrown error to `{error, message, details?}`; never leaks a stack or SQL text. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({
        error: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[field] ??= issue.message ?? APP_MSG.invalidInput;
      }
      const first = Object.values(fields)[0];
      return reply.status(400).send({
        error: 'invalid_input',
        message: Object.keys(fields).length === 1 && first ? first : APP_MSG.invalidInput,
        details: { fields },
      });
    }
    // Fastify's own client errors: malformed JSON, wrong content type, body too large.
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({
        error: status === 429 ? 'rate_limited' : status === 404 ? 'not_found' : 'invalid_input',
        message: status === 404 ? APP_MSG.notFound : error.message,
      });
    }
    if (isConcurrencyConflict(error)) {
      // writeTransaction ran it again and again and it still collided: the caller may try once more.
      request.log.warn({ err: error }, 'concurrent changes still colliding after retries');
      return reply.status(409).send({ error: 'conflict', message: APP_MSG.concurrentChange });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send({ error: 'internal', message: APP_MSG.internal });
  });
}
