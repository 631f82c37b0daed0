import { INTEGRATION_KEY_PREFIX, INTEGRATION_MSG } from '@allot/domain/integration';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tx } from '../db/client';
import type { FirstRead } from '../db/first-read';
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
 * A bearer token whose session the route looks up in its own query (route config `sessionInQuery`): one
 * round trip for the session and the read, or for the session and a write's BEGIN. `user` is set once the
 * query has found it.
 */
export interface SessionInQuery {
  token: string;
  user: AuthUser | null;
}

/** The live session of a bearer token, or null (the auth feature's `findSession`, given by app.ts). */
export type SessionLookup = (token: string) => Promise<AuthUser | null>;
/**
 * The session of a token as a statement of the write's own transaction, and the caller it found (the auth
 * feature's `sessionOfTokenSql` and `signedInFrom`, given by app.ts): `401` when it found none.
 */
export interface SessionStatement {
  statement: (token: string) => SQL;
  settle: (tx: Tx, pending: SessionInQuery, rows: unknown[]) => Promise<AuthUser>;
}
/** The live integration key of a bearer token, or null (the integration feature's `findIntegrationKey`). */
export type IntegrationKeyLookup = (token: string) => Promise<IntegrationCaller | null>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthUser | null;
    integration: IntegrationCaller | null;
    /** The token of a `sessionInQuery` route, its session not looked up yet (see `callerOf`). */
    sessionInQuery: SessionInQuery | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token (CONTRACT §1: sign in, verify, resend, reset, health). */
    public?: boolean;
    /** An integration call (CONTRACT §9): needs an integration key; a session token is `401`. */
    integration?: boolean;
    /**
     * A call that looks up the caller's session in its own query, not before the route runs: a read in its
     * one statement (`callerOf`), a write (`writeRoute`) in the first statement of its transaction, sent
     * with BEGIN (`sessionFirstRead`). One round trip instead of two. Whatever the route throws before its
     * query has found the session (an invalid body, an id that is no uuid) is answered `401` when the
     * session is not live (`settleSessionInQuery`), as it would have been without this.
     */
    sessionInQuery?: boolean;
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
  sessionStatement: SessionStatement,
) {
  app.decorateRequest('auth', null);
  app.decorateRequest('integration', null);
  app.decorateRequest('sessionInQuery', null);
  lookups.set(app, { findSession, sessionStatement });
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
    if (token && config?.sessionInQuery) {
      request.sessionInQuery = { token, user: null };
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
  const user = request.auth ?? request.sessionInQuery?.user;
  if (!user) throw AppError.unauthorized();
  return user;
}

/** The caller of a `sessionInQuery` route: its token, for the read to look up its session. */
export function callerOf(request: FastifyRequest): AuthUser | SessionInQuery {
  return request.sessionInQuery ?? authOf(request);
}

const lookups = new WeakMap<object, { findSession: SessionLookup; sessionStatement: SessionStatement }>();

/** What `registerAuthentication` was given, for a route's request. */
function lookupsOf(request: FastifyRequest) {
  // A route's instance is its plugin's, which inherits from the app's (where the lookups were registered).
  for (let at: object | null = request.server; at; at = Object.getPrototypeOf(at)) {
    const found = lookups.get(at);
    if (found) return found;
  }
  return undefined;
}

/**
 * For the error handler: when a `sessionInQuery` route fails before its query found the session, the session
 * is looked up now; false when it is not live (the answer is then `401`, as the hook would have answered).
 */
export async function settleSessionInQuery(request: FastifyRequest): Promise<boolean> {
  const pending = request.sessionInQuery;
  if (!pending || pending.user) return true;
  const findSession = lookupsOf(request)?.findSession;
  pending.user = findSession ? await findSession(pending.token) : null;
  return pending.user !== null;
}

/**
 * A `sessionInQuery` write's session, as its transaction's first read (`FirstRead`, db/transaction.ts: sent
 * with BEGIN, one round trip for both): null when the caller is known already.
 */
export function sessionFirstRead(request: FastifyRequest): FirstRead | undefined {
  const pending = request.sessionInQuery;
  const sessions = lookupsOf(request)?.sessionStatement;
  if (!pending || pending.user || !sessions) return undefined;
  return {
    statement: sessions.statement(pending.token),
    settle: async (tx, rows) => {
      await sessions.settle(tx, pending, rows);
    },
  };
}
