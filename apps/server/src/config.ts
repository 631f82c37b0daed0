import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  publicUrl: string;
  webDistDir: string;
  logLevel: string;
  /** WEB_CONCURRENCY: server processes on this machine (PostgreSQL only). */
  processes: number;
  /** INVITATIONS_PER_DAY: invitation mails one organization may send in a day (a default when unset). */
  invitationsPerDay: number | undefined;
  /**
   * INVOICE_MAILS_PER_DAY: invoice mails one organization may send in a day to a customer email that is none of
   * its owners and admins (a default when unset: features/invoices/invoice-recipients.ts).
   */
  invoiceMailsPerDay: number | undefined;
  /**
   * INTEGRATION_RATE_LIMIT_PER_MINUTE: calls one integration key may make in a minute, all processes together
   * (a default when unset: features/integration/key-rate-limit.ts).
   */
  integrationRateLimitPerMinute: number | undefined;
}

const here = path.dirname(new URL(import.meta.url).pathname);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT is not a valid port: ${env.PORT}`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(here, '../../web/dist')),
    logLevel: env.LOG_LEVEL ?? 'info',
    processes: positiveInteger(env.WEB_CONCURRENCY, 'WEB_CONCURRENCY') ?? 1,
    invitationsPerDay: positiveInteger(env.INVITATIONS_PER_DAY, 'INVITATIONS_PER_DAY'),
    invoiceMailsPerDay: positiveInteger(env.INVOICE_MAILS_PER_DAY, 'INVOICE_MAILS_PER_DAY'),
    integrationRateLimitPerMinute: positiveInteger(
      env.INTEGRATION_RATE_LIMIT_PER_MINUTE,
      'INTEGRATION_RATE_LIMIT_PER_MINUTE',
    ),
  };
}

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`${name} must be a whole number above 0: ${value}`);
  return parsed;
}
