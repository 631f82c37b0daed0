import { INTEGRATION_KEY_PREFIX, INTEGRATION_MSG } from '@allot/domain/integration';
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

/** The classroom product's caller (CONTRACT §9): a live integration key and the organization it acts in. */
export interface IntegrationCaller {
  keyId: string;
  organizationId: string;
  /**
   * False when the process answered the key from its copy of the last second (`liveKeyLookup`): the call's
   * own statement confirms it, and a refusal asks the database again first.
   */
  confirmed?: boolean;
}

/**
 * A bearer token whose session the route's read looks up in its own query (route config `sessionInRead`):
 * one round trip for the session, the access check and the data. `user` is set once the read has found it.
 */
export interface SessionInRead {
  token: string;
  user: AuthUser | null;
}

/** The live session of a bearer token, or null (the auth feature's `findSession`, given by app.ts). */
export type SessionLookup = (token: string) => Promise<AuthUser | null>;
/** The live integration key of a bearer token, or null (the integration feature's `findIntegrationKey`). */
export type IntegrationKeyLookup = (token: string) => Promise<IntegrationCaller | null>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthUser | null;
    integration: IntegrationCaller | null;
    /** The token of a `sessionInRead` route, its session not looked up yet (see `callerOf`). */
    sessionInRead: SessionInRead | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token (CONTRACT §1: sign in, verify, resend, reset, health). */
    public?: boolean;
    /** An integration call (CONTRACT §9): needs an integration key; a session token is `401`. */
    integration?: boolean;
    /**
     * A read that looks up the caller's session in its own query (`callerOf`), not before the route runs:
     * one round trip instead of two. Whatever the route throws before its read has found the session (an
     * invalid query string, an id that is no uuid) is answered `401` when the session is not live
     * (`settleSessionInRead`), as it would have been without this.
     */
    sessionInRead?: boolean;
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
 * Every /api route needs a live session unless its route config says `public: true`; an integration call
 * (`integration: true`) needs a live integration key instead, and a key works on nothing else (CONTRACT §9:
 * either on the wrong call is `401`). Checked when the request arrives, before its body is read or
 * validated (CONTRACT §1: a call without a valid token is `401` whatever its body).
 */
export function registerAuthentication(
  app: FastifyInstance,
  findSession: SessionLookup,
  findIntegrationKey: IntegrationKeyLookup,
) {
  app.decorateRequest('auth', null);
  app.decorateRequest('integration', null);
  app.decorateRequest('sessionInRead', null);
  lookups.set(app, findSession);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/docs')) return;
    const token = bearerToken(request);
    const config = request.routeOptions.config;
    if (config?.integration) {
      request.integration = token?.startsWith(INTEGRATION_KEY_PREFIX)
        ? await findIntegrationKey(token)
        : null;
      if (!request.integration) {
        // A key that is revoked or unknown says so; a session token is told this call takes a key.
        throw AppError.unauthorized(
          token
            ? token.startsWith(INTEGRATION_KEY_PREFIX)
              ? INTEGRATION_MSG.keyRevoked
              : INTEGRATION_MSG.keyOnly
            : undefined,
        );
      }
      return;
    }
    if (token?.startsWith(INTEGRATION_KEY_PREFIX)) {
      if (!config?.public) throw AppError.unauthorized(INTEGRATION_MSG.sessionOnly);
      return;
    }
    if (token && config?.sessionInRead) {
      request.sessionInRead = { token, user: null };
      return;
    }
    request.auth = token ? await findSession(token) : null;
    if (!request.auth && !config?.public) throw AppError.unauthorized(config?.messages?.unauthorized);
  });
}

/** The integration key of an integration call. */
export function integrationOf(request: FastifyRequest): IntegrationCaller {
  if (!request.integration) throw AppError.unauthorized();
  return request.integration;
}

/** The signed-in user of a route that is not public. */
export function authOf(request: FastifyRequest): AuthUser {
  const user = request.auth ?? request.sessionInRead?.user;
  if (!user) throw AppError.unauthorized();
  return user;
}

/** The caller of a `sessionInRead` route: its token, for the read to look up its session. */
export function callerOf(request: FastifyRequest): AuthUser | SessionInRead {
  return request.sessionInRead ?? authOf(request);
}

const lookups = new WeakMap<object, SessionLookup>();

/**
 * For the error handler: when a `sessionInRead` route fails before its read found the session, the session
 * is looked up now; false when it is not live (the answer is then `401`, as the hook would have answered).
 */
export async function settleSessionInRead(request: FastifyRequest): Promise<boolean> {
  const pending = request.sessionInRead;
  if (!pending || pending.user) return true;
  // A route's instance is its plugin's, which inherits from the app's (where the lookup was registered).
  let findSession: SessionLookup | undefined;
  for (let at: object | null = request.server; at && !findSession; at = Object.getPrototypeOf(at)) {
    findSession = lookups.get(at);
  }
  pending.user = findSession ? await findSession(pending.token) : null;
  return pending.user !== null;
}
