import {
  acceptInvitationRequestSchema,
  acceptInvitationResponseSchema,
  confirmEmailChangeRequestSchema,
  confirmEmailChangeResponseSchema,
  resendInvitationRequestSchema,
  successResponseSchema,
} from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { writeAfterAnswering, writeRoute } from '../../http/write-route';
import type { MailSettings } from '../mail';
import { checkEmailChangeCode, confirmEmailChange } from './change-email';
import { acceptInvitation, checkInvitationCode, mayResendInvitation, resendInvitation } from './invitations';

/** The answers of a code call: done, a wrong code or a missing password (400), too many guesses (429). */
const codeErrors = { 400: errorBodySchema, 429: errorBodySchema };

/**
 * The calls a person makes from a mail, signed in or not (CONTRACT §3): accepting an invitation of an
 * account that already existed, and confirming a new email. The code is the proof; both are public.
 */
export function accountRoutes(db: Db, mail: MailSettings): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/auth/invitation/accept',
      {
        config: { public: true },
        schema: {
          operationId: 'acceptInvitation',
          tags: ['auth'],
          summary: 'Accept an invitation',
          description:
            'Joins the organization of an invitation with the code of its mail. For an account that already existed. Public: needs no token. A wrong, used or expired code, or a cancelled invitation: 400 invalid_code. Right code, but the account has no password and none was given: 400 password_required (the code stays usable).',
          body: acceptInvitationRequestSchema,
          response: { 200: acceptInvitationResponseSchema, ...codeErrors },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx, _key, checked) => acceptInvitation(tx, request.body, checked), {
          before: () => checkInvitationCode(db, request.body, request.ip),
        }),
    );

    app.post(
      '/api/auth/invitation/resend',
      {
        config: { public: true },
        schema: {
          operationId: 'resendInvitation',
          tags: ['auth'],
          summary: 'Send an invitation’s code again',
          description:
            'Sends a new code for an open invitation; the same answer whatever the email, so nobody learns who was invited. Public: needs no token.',
          body: resendInvitationRequestSchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request, reply) =>
        writeAfterAnswering(
          app.background,
          'invitation resend',
          db,
          request,
          reply,
          (tx, _key, mayMail) => resendInvitation(tx, request.body, mayMail, mail),
          () => mayResendInvitation(db, request.body, request.ip),
        ),
    );

    app.post(
      '/api/auth/email/confirm',
      {
        config: { public: true },
        schema: {
          operationId: 'confirmEmailChange',
          tags: ['auth'],
          summary: 'Confirm a new email',
          description:
            'Makes the new email of an account its email, with the code mailed there. Public: the code is the proof; a token is not needed. From the link /email/confirm/{userId}/{token}. Every other session of the account ends; the session making the call stays when it is the account’s own. The address taken meanwhile: 409.',
          body: confirmEmailChangeRequestSchema,
          response: { 200: confirmEmailChangeResponseSchema, 409: errorBodySchema, ...codeErrors },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx, _key, checked) => confirmEmailChange(tx, checked, request.auth), {
          before: () => checkEmailChangeCode(db, request.body, request.ip),
        }),
    );
  };
}
