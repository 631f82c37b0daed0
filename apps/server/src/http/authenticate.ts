import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error';

/** The signed-in caller, as every service that acts for someone takes it. */
export interface AuthUser {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  isSystemAdmin: boolean;
}

/** The live session of a bearer token, or null (the auth feature's `findSession`, given by app.ts). */
export type SessionLookup = (token: string) => Promise<AuthUser | null>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token (CONTRACT §1: sign in, verify, resend, reset, health). */
    public?: boolean;
    /**
     * A call's own texts for the refusals the framework answers (spec §8: invoice creation has its own
     * 400, 401 and 500 texts); the error body and its code stay the same.
     */
    messages?: { invalid?: string; unauthorized?: string; internal?: string };
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Every /api route needs a live session unless its route config says `public: true`. Checked when the
 * request arrives, before its body is read or validated (CONTRACT §1: a call without a valid token is
 * `401` whatever its body).
 */
export function registerAuthentication(app: FastifyInstance, findSession: SessionLookup) {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/docs')) return;
    const token = bearerToken(request);
    request.auth = token ? await findSession(token) : null;
    const config = request.routeOptions.config;
    if (!request.auth && !config?.public) throw AppError.unauthorized(config?.messages?.unauthorized);
  });
}

/** The signed-in user of a route that is not public. */
export function authOf(request: FastifyRequest): AuthUser {
  if (!request.auth) throw AppError.unauthorized();
  return request.auth;
}
