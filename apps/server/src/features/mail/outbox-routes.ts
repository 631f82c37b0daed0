import { errorBodySchema } from '@allot/domain/errors';
import {
  type MailDelivery,
  type MailDeliveryAnswer,
  type MailOutboxPage,
  mailDeliveryAnswerSchema,
  mailOutboxPageSchema,
  mailOutboxQuerySchema,
  type OutboxMail,
} from '@allot/domain/mail';
import { buildPagination } from '@allot/domain/pagination';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { authOf } from '../../http/authenticate';
import { requireSystemAdmin } from '../organization-access';

type Row = {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  status: OutboxMail['status'];
  created_at: Date | string;
  sent_at: Date | string | null;
};

/**
 * GET /api/mail/outbox (issue 33): what this installation mailed, or would have, newest first, for system admins.
 * Without `SMTP_URL` nothing is sent (`delivery: log`): the invitation and sign-in codes are read here instead of
 * in the server's log.
 */
export function mailOutboxRoutes(db: Db, delivery: MailDelivery): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/mail/delivery',
      {
        config: { public: true },
        schema: {
          operationId: 'readMailDelivery',
          tags: ['mail'],
          summary: 'Whether mail is delivered',
          description:
            '`smtp` when this installation sends mail through `SMTP_URL`, `log` when it sends none (each mail waits in the outbox, which system admins read, and goes to the server’s log). The screens say a mail was “sent” only with `smtp`, else that it is queued. Public: needs no token (the code and reset screens say it too); it tells nothing about any account.',
          response: { 200: mailDeliveryAnswerSchema },
        },
      },
      async (): Promise<MailDeliveryAnswer> => ({ delivery }),
    );

    app.get(
      '/api/mail/outbox',
      {
        schema: {
          operationId: 'readMailOutbox',
          tags: ['mail'],
          summary: 'The mail outbox',
          description:
            'The mail this installation sent or keeps, newest first, with each mail’s text (its codes and links): `delivery` says whether mail goes out through SMTP (`smtp`) or is only kept here and written to the server’s log (`log`, when `SMTP_URL` is not set). Permission: system admins only (`403` for anyone else).',
          querystring: mailOutboxQuerySchema,
          response: { 200: mailOutboxPageSchema, 403: errorBodySchema },
        },
      },
      async (request): Promise<MailOutboxPage> => {
        await requireSystemAdmin(db, authOf(request));
        const { page, limit } = request.query;
        const [counted] = await rows<{ total: string }>(
          db,
          sql`select count(*)::text as total from mail_outbox`,
        );
        const found = await rows<Row>(
          db,
          sql`select id, kind, to_address, subject, text_body, status, created_at, sent_at from mail_outbox
              order by created_at desc, id desc limit ${limit} offset ${(page - 1) * limit}`,
        );
        return {
          delivery,
          data: found.map((r) => ({
            id: r.id,
            kind: r.kind,
            to: r.to_address,
            subject: r.subject,
            text: r.text_body,
            status: r.status,
            createdAt: new Date(r.created_at).toISOString(),
            sentAt: r.sent_at ? new Date(r.sent_at).toISOString() : null,
          })),
          pagination: buildPagination(request.query, Number(counted?.total ?? 0)),
        };
      },
    );
  };
}
