import {
  checkResetCodeRequestSchema,
  forgotPasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  resendVerificationRequestSchema,
  resetPasswordRequestSchema,
  successResponseSchema,
  validateRequestSchema,
  validateResponseSchema,
  verifyEmailRequestSchema,
} from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { writeAfterAnswering, writeRoute } from '../../http/write-route';
import type { MailSettings } from '../mail';
import {
  checkPasswordReset,
  checkResetCode,
  countResetCodeCheck,
  mayMailPasswordReset,
  requestPasswordReset,
  resetPassword,
} from './reset-password';
import { revokeSession } from './sessions';
import { checkSignIn, login } from './sign-in';
import { SIGN_IN_LIMITS, type SignInLimits, signInLimitsNote } from './sign-in-limits';
import type { SignInSettings } from './sign-in-settings';
import {
  checkEmailVerification,
  mayResendVerification,
  resendVerification,
  verifyEmail,
} from './verify-email';

/** The answers of the code calls: `{success}`, a wrong code (400), too many guesses (429). */
const codeResponses = { 200: successResponseSchema, 400: errorBodySchema, 429: errorBodySchema };

export function authRoutes(
  db: Db,
  mail: MailSettings,
  signIn: SignInSettings,
  limits: SignInLimits = SIGN_IN_LIMITS,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/auth/login',
      {
        config: { public: true },
        schema: {
          operationId: 'login',
          tags: ['auth'],
          summary: 'Sign in',
          description: [
            'Signs in with email and password and answers the bearer token of a new session. Only owners, admins and system admins use the panel (`403 no_panel_access` for teachers); an unverified account gets `403 not_verified`. With two-factor on, a right password answers `403 mfa_required` with `details.challenge` for `POST /api/auth/mfa/verify`; an account required to have two-factor that has not set it up gets `403 mfa_setup_required` with `details.challenge`, which `POST /api/auth/mfa/setup` and `enable` accept instead of a session.',
            signInLimitsNote(limits),
            'Public: needs no token.',
          ].join(' '),
          body: loginRequestSchema,
          response: {
            200: loginResponseSchema,
            401: errorBodySchema,
            403: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx, _key, signedIn) => login(tx, signedIn, signIn), {
          before: () => checkSignIn(db, request.body, request.ip, limits),
        }),
    );

    app.post(
      '/api/auth/logout',
      {
        schema: {
          operationId: 'logout',
          tags: ['auth'],
          summary: 'Sign out',
          description: 'Ends the session of the bearer token. Permission: any signed-in user.',
          response: { 200: successResponseSchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, async (tx) => {
          await revokeSession(tx, authOf(request).sessionId);
          return { success: true as const };
        }),
    );

    app.post(
      '/api/auth/validate',
      {
        // Answers {valid: false} for a dead token instead of 401: checking a token is its purpose.
        config: { public: true },
        schema: {
          operationId: 'validateSession',
          tags: ['auth'],
          summary: 'Check a session',
          description:
            'Is the bearer token live, and does it belong to this id and email? Answers `{valid: false}` rather than `401` for a missing or dead token: checking a token is its purpose.',
          security: [{ bearer: [] }, {}],
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

    app.post(
      '/api/auth/verify',
      {
        config: { public: true },
        schema: {
          operationId: 'verifyEmail',
          tags: ['auth'],
          summary: 'Verify an email',
          description:
            'Verifies an account’s email with the code of its mail, and sets the password of an invited account that has none. Public: needs no token. A wrong, used or expired code: 400 invalid_code. Right code, but the account has no password and none was given: 400 password_required (the code stays usable).',
          body: verifyEmailRequestSchema,
          response: codeResponses,
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx, _key, checked) => verifyEmail(tx, checked), {
          before: () => checkEmailVerification(db, request.body, request.ip),
        }),
    );

    app.post(
      '/api/auth/verify/resend',
      {
        config: { public: true },
        schema: {
          operationId: 'resendVerification',
          tags: ['auth'],
          summary: 'Send a verification code again',
          description:
            'Mails a new verification code; the same answer whatever the email, so nobody learns which addresses have accounts. Public: needs no token.',
          body: resendVerificationRequestSchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request, reply) =>
        writeAfterAnswering(
          app.background,
          'verification resend',
          db,
          request,
          reply,
          (tx, _key, mayMail) => resendVerification(tx, request.body, mayMail, mail),
          () => mayResendVerification(db, request.body, request.ip),
        ),
    );

    app.post(
      '/api/auth/password/forgot',
      {
        config: { public: true },
        schema: {
          operationId: 'requestPasswordReset',
          tags: ['auth'],
          summary: 'Ask for a password reset',
          description:
            'Mails a reset code and link; the same answer whatever the email. Public: needs no token.',
          body: forgotPasswordRequestSchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request, reply) =>
        writeAfterAnswering(
          app.background,
          'password reset request',
          db,
          request,
          reply,
          (tx, _key, mayMail) => requestPasswordReset(tx, request.body, mayMail, mail),
          () => mayMailPasswordReset(db, request.body, request.ip),
        ),
    );

    app.post(
      '/api/auth/password/check',
      {
        config: { public: true },
        schema: {
          operationId: 'checkResetCode',
          tags: ['auth'],
          summary: 'Check a reset code',
          description:
            'Checks the code of a reset link without using it up (`400 invalid_code` when it is wrong, used or expired). Public: needs no token.',
          body: checkResetCodeRequestSchema,
          response: codeResponses,
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx, _key, attempt) => checkResetCode(tx, request.body, attempt), {
          before: () => countResetCodeCheck(db, request.body, request.ip),
        }),
    );

    app.post(
      '/api/auth/password/reset',
      {
        config: { public: true },
        schema: {
          operationId: 'resetPassword',
          tags: ['auth'],
          summary: 'Reset a password',
          description:
            'Sets a new password with the code of a reset link and ends every session of the account. Public: needs no token.',
          body: resetPasswordRequestSchema,
          response: codeResponses,
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx, _key, checked) => resetPassword(tx, checked), {
          before: () => checkPasswordReset(db, request.body, request.ip),
        }),
    );
  };
}
