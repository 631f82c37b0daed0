import { z } from 'zod';
import { paginationQuerySchema, paginationSchema } from './pagination';
import { dateTimeOut, emailOut, uuidOut } from './text';

/**
 * How this installation delivers mail (issue 33): through an SMTP server (`SMTP_URL`), or not at all, the mail
 * kept in the outbox and written to the server's log (`log`), which a system admin then reads in the panel.
 */
export const MAIL_DELIVERIES = ['smtp', 'log'] as const;
export type MailDelivery = (typeof MAIL_DELIVERIES)[number];

export const OUTBOX_MAIL_STATUSES = ['pending', 'sent', 'logged'] as const;

export const outboxMailSchema = z
  .object({
    id: uuidOut(),
    kind: z.string().describe('invitation, verification, reset, invoice, alert, …'),
    to: emailOut(),
    subject: z.string(),
    text: z.string().describe('The plain text of the mail, its codes and links included'),
    status: z
      .enum(OUTBOX_MAIL_STATUSES)
      .describe('pending: not delivered yet; sent: handed to SMTP; logged: kept here, never sent (no SMTP)'),
    createdAt: dateTimeOut(),
    sentAt: dateTimeOut().nullable(),
  })
  .meta({ id: 'OutboxMail' });
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const mailOutboxQuerySchema = paginationQuerySchema(['createdAt'] as const);
export const mailOutboxPageSchema = z
  .object({
    delivery: z.enum(MAIL_DELIVERIES).describe('smtp: mail is sent; log: nothing is sent, mail waits here'),
    data: z.array(outboxMailSchema),
    pagination: paginationSchema,
  })
  .meta({ id: 'MailOutboxPage' });
export type MailOutboxPage = z.infer<typeof mailOutboxPageSchema>;

/**
 * GET /api/mail/delivery (issue 33): whether this installation delivers mail, for every screen that says a mail
 * went out (public: the sign-in, code and reset screens say it too). One source for "sent" or "queued".
 */
export const mailDeliveryAnswerSchema = z
  .object({
    delivery: z
      .enum(MAIL_DELIVERIES)
      .describe('smtp: mail goes out through SMTP_URL; log: nothing is delivered, mail waits in the outbox'),
  })
  .meta({ id: 'MailDeliveryAnswer' });
export type MailDeliveryAnswer = z.infer<typeof mailDeliveryAnswerSchema>;
