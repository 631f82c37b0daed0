import path from 'node:path';
import { isWebAddress, type PublicConfig } from '@allot/domain/public-config';
import { isEmail } from '@allot/domain/text';
import { SESSION_MAX_DAYS_DEFAULT } from './features/auth/sign-in-settings';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /**
   * DATABASE_READ_URL: a streaming replica of DATABASE_URL for the reads that tolerate one (docs/decisions/018).
   * PostgreSQL only: without DATABASE_URL the start is refused.
   */
  databaseReadUrl: string | undefined;
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
  /**
   * CONSUME_TRANSACTIONS: transactions a process runs at once for single consumption calls, each shared by
   * the calls waiting when it starts, and as many again for batch calls, one each (unset: 2 shared among
   * the processes, `defaultConsumeTransactions` in features/integration/consume-queue.ts; batch-gate.ts), and
   * as many again for credit moves between organizations' pools, shared the same way (credits/move-queue.ts).
   */
  consumeTransactions: number | undefined;
  /**
   * INVOICE_PAYEE and INVOICE_PAYMENT_INSTRUCTIONS: who invoices are paid to and how (a bank transfer's details),
   * printed on every invoice and its mail; none when unset (features/invoices/invoice-payment.ts).
   */
  invoicePayee: string | undefined;
  invoicePaymentInstructions: string | undefined;
  /** REQUIRE_SYSTEM_ADMIN_MFA=true: system admins sign in with two-factor (decision 015). */
  requireSystemAdminMfa: boolean;
  /** MFA_ENCRYPTION_KEY: 32 bytes (base64 or 64 hex digits) that encrypt the TOTP secrets at rest. */
  mfaEncryptionKey: Buffer | undefined;
  /** TRUST_PROXY: the proxies whose `X-Forwarded-For` is believed (`trustProxySetting`); none by default. */
  trustProxy: boolean | number | string;
  /** SESSION_MAX_DAYS: a session ends this many days after its sign-in, however often it is used (default 30). */
  sessionMaxDays: number;
  /**
   * SHUTDOWN_TIMEOUT_SECONDS: on SIGTERM, how long a process waits for its requests in flight and its jobs'
   * runs before it closes what is left (default 20).
   */
  shutdownTimeoutMs: number;
  /** METRICS_TOKEN: the bearer token of `GET /api/metrics`; without it the metrics are off. */
  metricsToken: string | undefined;
  /** SUPPORT_EMAIL, TERMS_URL, PRIVACY_URL: the footer's Contact, Terms and Privacy (GET /api/public-config). */
  publicConfig: PublicConfig;
}

const DEFAULT_SHUTDOWN_SECONDS = 20;

const here = path.dirname(new URL(import.meta.url).pathname);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT is not a valid port: ${env.PORT}`);
  // The embedded PGlite has no replicas: a read URL beside it is a configuration mistake, not something to ignore.
  if (env.DATABASE_READ_URL && !env.DATABASE_URL)
    throw new Error('DATABASE_READ_URL needs DATABASE_URL: a read replica is one of a PostgreSQL server');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
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
    consumeTransactions: positiveInteger(env.CONSUME_TRANSACTIONS, 'CONSUME_TRANSACTIONS'),
    invoicePayee: invoiceText(env.INVOICE_PAYEE, 'INVOICE_PAYEE', 200),
    invoicePaymentInstructions: invoiceText(
      env.INVOICE_PAYMENT_INSTRUCTIONS,
      'INVOICE_PAYMENT_INSTRUCTIONS',
      2000,
    ),
    requireSystemAdminMfa: booleanSetting(env.REQUIRE_SYSTEM_ADMIN_MFA, 'REQUIRE_SYSTEM_ADMIN_MFA'),
    mfaEncryptionKey: encryptionKey(env.MFA_ENCRYPTION_KEY, 'MFA_ENCRYPTION_KEY'),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    sessionMaxDays: positiveInteger(env.SESSION_MAX_DAYS, 'SESSION_MAX_DAYS') ?? SESSION_MAX_DAYS_DEFAULT,
    shutdownTimeoutMs:
      (positiveInteger(env.SHUTDOWN_TIMEOUT_SECONDS, 'SHUTDOWN_TIMEOUT_SECONDS') ??
        DEFAULT_SHUTDOWN_SECONDS) * 1000,
    metricsToken: env.METRICS_TOKEN || undefined,
    publicConfig: {
      supportEmail: emailSetting(env.SUPPORT_EMAIL, 'SUPPORT_EMAIL'),
      termsUrl: webAddress(env.TERMS_URL, 'TERMS_URL'),
      privacyUrl: webAddress(env.PRIVACY_URL, 'PRIVACY_URL'),
    },
  };
}

/**
 * A text printed on invoices: trimmed, `\n` (a backslash and an n, as one line of an env file writes it) a line
 * break; empty is none. Too long is a mistake worth stopping the start for.
 */
function invoiceText(value: string | undefined, name: string, max: number): string | undefined {
  const text = value?.replaceAll('\\n', '\n').trim();
  if (!text) return undefined;
  if (text.length > max) throw new Error(`${name} is longer than ${max} characters`);
  return text;
}

/** The footer's settings (issue 36): refused at start rather than published as a broken link. */
function emailSetting(value: string | undefined, name: string): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (!isEmail(text)) throw new Error(`${name} must be an email address: ${value}`);
  return text;
}

function webAddress(value: string | undefined, name: string): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (!isWebAddress(text)) throw new Error(`${name} must be an http:// or https:// address: ${value}`);
  return text;
}

/**
 * TRUST_PROXY: whom to believe about the client's address (sign-in limits count by it). `true` believes every
 * hop, so the leftmost `X-Forwarded-For` entry wins, which a client writes itself unless the balancer replaces
 * the header; a number is how many proxies stand in front (the address that many hops back is the client's);
 * addresses or CIDR ranges, comma-separated, are the proxies to believe (Fastify's `trustProxy`).
 */
function trustProxySetting(value: string | undefined): boolean | number | string {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return positiveInteger(text, 'TRUST_PROXY') ?? false;
  for (const entry of text.split(',')) {
    if (!/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry.trim()))
      throw new Error(`TRUST_PROXY must be true, false, a number of proxies or their addresses: ${value}`);
  }
  return text;
}

function booleanSetting(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`${name} must be true or false: ${value}`);
}

/** A 256-bit key, written as 64 hex digits or in base64 (`openssl rand -base64 32`). */
function encryptionKey(value: string | undefined, name: string): Buffer | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, as 64 hex digits or in base64`);
  return key;
}

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`${name} must be a whole number above 0: ${value}`);
  return parsed;
}
