import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { MailTransport } from './outbox';

/** SMTP through nodemailer; short timeouts, so that a dead server fails an attempt instead of hanging it. */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from },
  );
  return {
    delivers: 'sent',
    async send(mail) {
      await transporter.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP_URL: the mail stays in the outbox (status `logged`) and its plain text, code and link
 * included, goes to the log, so that a local run needs no mail server. Never use this in production.
 */
export function logTransport(log: FastifyBaseLogger): MailTransport {
  return {
    delivers: 'logged',
    async send(mail) {
      log.info(
        { mail: { id: mail.id, kind: mail.kind, to: mail.to, subject: mail.subject, text: mail.text } },
        `mail kept in the outbox (SMTP_URL is not set): "${mail.subject}" to ${mail.to}`,
      );
    },
    close: () => {},
  };
}
