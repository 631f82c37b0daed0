import { loginResponseSchema, successResponseSchema } from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import {
  mfaConfirmRequestSchema,
  mfaEnableRequestSchema,
  mfaEnableResponseSchema,
  mfaSetupRequestSchema,
  mfaSetupResponseSchema,
  mfaStatusSchema,
  mfaVerifyRequestSchema,
  recoveryCodesResponseSchema,
} from '@allot/domain/mfa';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { writeRoute } from '../../http/write-route';
import {
  checkMfaDisable,
  checkMfaPassword,
  checkMfaSetup,
  countMfaEnable,
  countMfaVerify,
  disableMfa,
  enableMfa,
  getMfaStatus,
  newRecoveryCodes,
  setupMfa,
  verifyMfa,
} from './manage-two-factor';
import type { SignInSettings } from './sign-in-settings';

const TOKEN_OR_CHALLENGE =
  'With a session (bearer token), or without one with the `challenge` of a sign-in answered `403 mfa_setup_required`.';

/** Two-factor sign-in (CONTRACT §3, decision 015). */
export function mfaRoutes(db: Db, settings: SignInSettings): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/auth/mfa',
      {
        schema: {
          operationId: 'getTwoFactorStatus',
          tags: ['auth'],
          summary: 'Two-factor sign-in of the caller',
          description:
            'Whether two-factor sign-in is on, how many recovery codes are left, and whether the account is required to have it. Permission: any signed-in user (about their own account).',
          response: { 200: mfaStatusSchema, 401: errorBodySchema },
        },
      },
      async (request) => getMfaStatus(db, authOf(request), settings),
    );

    app.post(
      '/api/auth/mfa/setup',
      {
        config: { public: true },
        schema: {
          operationId: 'setUpTwoFactor',
          tags: ['auth'],
          summary: 'Start setting up two-factor sign-in',
          description: `A new TOTP secret and its otpauth:// URL (for a QR code), answered this once; confirmed by \`enable\`. ${TOKEN_OR_CHALLENGE} With a session the password is required (a wrong one: \`400 invalid_input\` on \`password\`). Already on: \`409\`. No token and no live challenge: \`401\`. Password attempts are counted like codes (\`429\`).`,
          security: [{ bearer: [] }, {}],
          body: mfaSetupRequestSchema,
          response: {
            200: mfaSetupResponseSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            409: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx, _key, account) => setupMfa(tx, account, settings), {
          before: () => checkMfaSetup(db, request.auth, request.body, request.ip),
        }),
    );

    app.post(
      '/api/auth/mfa/enable',
      {
        config: { public: true },
        schema: {
          operationId: 'enableTwoFactor',
          tags: ['auth'],
          summary: 'Turn two-factor sign-in on',
          description: `Confirms the secret of \`setup\` with a code of the authenticator app and answers 10 recovery codes, shown this once. Every other session of the account ends. ${TOKEN_OR_CHALLENGE} With a challenge the person is signed in: the answer's \`session\` is the sign-in body. A wrong code: \`400 invalid_code\`; no secret waiting: \`422\`; already on: \`409\`; too many wrong codes: \`429\`.`,
          security: [{ bearer: [] }, {}],
          body: mfaEnableRequestSchema,
          response: {
            200: mfaEnableResponseSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            409: errorBodySchema,
            422: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx, _key, enrolling) => enableMfa(tx, request.auth, enrolling, request.body, settings),
          { before: () => countMfaEnable(db, request.auth, request.body, request.ip) },
        ),
    );

    app.post(
      '/api/auth/mfa/disable',
      {
        schema: {
          operationId: 'disableTwoFactor',
          tags: ['auth'],
          summary: 'Turn two-factor sign-in off',
          description:
            'With the password and a code (of the authenticator app, or a recovery code). Every other session of the account ends. Refused with `422` while the account is required to have it, or when it is not on. Permission: any signed-in user (about their own account).',
          body: mfaConfirmRequestSchema,
          response: {
            200: successResponseSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            422: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx, _key, attempt) => disableMfa(tx, authOf(request), request.body, attempt, settings),
          { before: () => checkMfaDisable(db, authOf(request), request.body, request.ip, settings) },
        ),
    );

    app.post(
      '/api/auth/mfa/recovery-codes',
      {
        schema: {
          operationId: 'replaceRecoveryCodes',
          tags: ['auth'],
          summary: 'New recovery codes',
          description:
            'With the password and a code: 10 new recovery codes, shown this once; the earlier ones stop working. Not on: `422`. Permission: any signed-in user (about their own account).',
          body: mfaConfirmRequestSchema,
          response: {
            200: recoveryCodesResponseSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            422: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx, _key, attempt) => newRecoveryCodes(tx, authOf(request), request.body, attempt, settings),
          { before: () => checkMfaPassword(db, authOf(request), request.body, request.ip) },
        ),
    );

    app.post(
      '/api/auth/mfa/verify',
      {
        config: { public: true },
        schema: {
          operationId: 'verifyTwoFactor',
          tags: ['auth'],
          summary: 'Finish signing in with a code',
          description:
            'The second step of a sign-in answered `403 mfa_required`: its `challenge` (single use, 5 minutes) and a code of the authenticator app (each works once) or a recovery code (each works once). Answers the sign-in body. A wrong code: `400 invalid_code` (the challenge stays usable); an unknown, used or expired challenge: `401`; wrong codes are limited per account and IP (`429`). Public: needs no token.',
          body: mfaVerifyRequestSchema,
          response: {
            200: loginResponseSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx, _key, codeStep) => verifyMfa(tx, codeStep, request.body, settings),
          {
            before: () => countMfaVerify(db, request.body, request.ip),
          },
        ),
    );
  };
}
