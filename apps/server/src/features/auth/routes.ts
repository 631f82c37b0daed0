import {
  loginRequestSchema,
  loginResponseSchema,
  successResponseSchema,
  validateRequestSchema,
  validateResponseSchema,
} from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { login } from './service';
import { revokeSession } from './sessions';

export function authRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/auth/login',
      {
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'Sign in with email and password',
          body: loginRequestSchema,
          response: {
            200: loginResponseSchema,
            401: errorBodySchema,
            403: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request) => login(db, request.body, request.ip),
    );

    app.post(
      '/api/auth/logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'Sign out: revokes the bearer token',
          security: [{ bearer: [] }],
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        await revokeSession(db, authOf(request).sessionId);
        return { success: true };
      },
    );

    app.post(
      '/api/auth/validate',
      {
        // Answers {valid: false} for a dead token instead of 401: checking a token is its purpose.
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'Is the bearer token live and does it belong to this id and email?',
          security: [{ bearer: [] }],
          body: validateRequestSchema,
          response: { 200: validateResponseSchema },
        },
      },
      async (request) => {
        const auth = request.auth;
        const valid =
          auth !== null &&
          auth.userId === request.body.id &&
          auth.email.toLowerCase() === request.body.email.toLowerCase();
        return { valid };
      },
    );
  };
}
