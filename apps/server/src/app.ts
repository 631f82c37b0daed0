import { existsSync } from 'node:fs';
import path from 'node:path';
import { APP_MSG } from '@allot/domain/messages';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from './db/client';
import { auditRoutes } from './features/audit/routes';
import { mfaRoutes } from './features/auth/mfa-routes';
import { authRoutes } from './features/auth/routes';
import { findSession } from './features/auth/sessions';
import { NO_TWO_FACTOR_SETTINGS, type TwoFactorSettings } from './features/auth/two-factor-settings';
import { creditRoutes } from './features/credits/routes';
import { healthRoutes } from './features/health/routes';
import { type InsightsJobOptions, type InsightsJobs, startInsightsJobs } from './features/insights/jobs';
import { insightsRoutes } from './features/insights/routes';
import { liveKeyLookup } from './features/integration/key-auth';
import { integrationKeyRoutes } from './features/integration/key-routes';
import { integrationRoutes } from './features/integration/routes';
import { type InvoicePayment, NO_INVOICE_PAYMENT } from './features/invoices/invoice-payment';
import { invoiceRoutes } from './features/invoices/routes';
import {
  type ExpiryReminderJob,
  type ExpiryReminderJobOptions,
  startExpiryReminderJob,
} from './features/licenses/expiry-job';
import { licenseRoutes } from './features/licenses/routes';
import { type MailWorker, type MailWorkerOptions, startMailWorker } from './features/mail/mail-worker';
import type { MailTransport } from './features/mail/outbox';
import { mailOutboxRoutes } from './features/mail/outbox-routes';
import type { MailSettings } from './features/mail/public-links';
import { logTransport, smtpTransport } from './features/mail/transports';
import { organizationRoutes } from './features/organizations/routes';
import { accountRoutes } from './features/users/account-routes';
import { userRoutes } from './features/users/routes';
import { AccessLog } from './http/access-log';
import { registerAuthentication } from './http/authenticate';
import { invalidPath, registerErrorHandler } from './http/error-handler';
import { logSerializers } from './http/log-redaction';
import { registerOpenApi } from './http/openapi';
import { registerSecurityHeaders } from './http/security-headers';
import { BackgroundWork } from './lib/background';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work requests start and do not wait for (lib/background.ts). */
    background: BackgroundWork;
  }
}

export interface AppOptions {
  db: Db;
  /** Built web app to serve beside the API; skipped when the folder does not exist. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Behind a load balancer, trust X-Forwarded-For for the client IP (login rate limit). */
  trustProxy?: boolean;
  /** Base of the links in mail (PUBLIC_URL). */
  publicUrl?: string;
  /** Invitation mails one organization may send in a day (INVITATIONS_PER_DAY). */
  invitationsPerDay?: number | undefined;
  /** Invoice mails one organization may send in a day to addresses outside it (INVOICE_MAILS_PER_DAY). */
  invoiceMailsPerDay?: number | undefined;
  /** Whom invoices are paid to and how (INVOICE_PAYEE, INVOICE_PAYMENT_INSTRUCTIONS); none by default. */
  invoicePayment?: InvoicePayment;
  /** Calls one integration key may make in a minute, all processes together (INTEGRATION_RATE_LIMIT_PER_MINUTE). */
  integrationRateLimitPerMinute?: number | undefined;
  /** REQUIRE_SYSTEM_ADMIN_MFA and MFA_ENCRYPTION_KEY (decision 015); by default neither. */
  twoFactor?: TwoFactorSettings;
  /**
   * This process's outbox worker: through SMTP with smtpUrl (or the given transport), else to the log.
   * Off unless asked for: API tests drive `processOutbox` themselves.
   */
  mail?: { worker: MailWorkerOptions; smtpUrl?: string; from?: string; transport?: MailTransport };
  /**
   * This process's licence expiry reminder job (features/licenses/expiry-job.ts). Off unless asked for: API
   * tests call `sendDueExpiryReminders` themselves.
   */
  expiryReminders?: ExpiryReminderJobOptions;
  /**
   * This process's credit usage roll-up and low-balance alert worker (features/insights/jobs.ts). Off unless
   * asked for: API tests run them themselves.
   */
  insightsJobs?: InsightsJobOptions;
}

/** CONTRACT §1: bodies at most 1 MB; the import calls allow 16 MB (their own `bodyLimit`). */
export const BODY_LIMIT = 1024 * 1024;

export async function buildApp({
  db,
  webDistDir,
  logger = false,
  trustProxy = false,
  publicUrl = 'http://localhost:3000',
  invitationsPerDay,
  invoiceMailsPerDay,
  invoicePayment = NO_INVOICE_PAYMENT,
  integrationRateLimitPerMinute,
  twoFactor = NO_TWO_FACTOR_SETTINGS,
  mail,
  expiryReminders,
  insightsJobs,
}: AppOptions) {
  const app = Fastify({
    // The request log keeps no secret: URLs without tokens or emails, errors without query values.
    logger: logger === false ? false : { ...(logger === true ? {} : logger), serializers: logSerializers },
    // One line a request instead of two: http/access-log.ts.
    logController: new AccessLog(),
    trustProxy,
    bodyLimit: BODY_LIMIT,
    // A path Fastify cannot decode (`/api/organization/%zz`): the contract's error body, with the headers.
    frameworkErrors: invalidPath,
  }).withTypeProvider<ZodTypeProvider>();
  // JSON in, JSON out (CONTRACT §1): a text body is a 415, not a string handed to a route.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  const background = new BackgroundWork(app.log);
  app.decorate('background', background);
  app.addHook('onClose', () => background.settle());
  // Headers first: every answer carries them, a 401 of the authentication hook too.
  await registerSecurityHeaders(app);
  registerAuthentication(app, (token) => findSession(db, token), liveKeyLookup(db));

  await registerOpenApi(app, publicUrl);

  await app.register(healthRoutes(db));
  const mailSettings: MailSettings = {
    publicUrl,
    ...(invitationsPerDay ? { invitationsPerDay } : {}),
    ...(invoiceMailsPerDay ? { invoiceMailsPerDay } : {}),
  };
  await app.register(authRoutes(db, mailSettings, twoFactor));
  await app.register(mfaRoutes(db, twoFactor));
  await app.register(organizationRoutes(db, mailSettings));
  await app.register(userRoutes(db, mailSettings));
  await app.register(accountRoutes(db, mailSettings));
  await app.register(creditRoutes(db));
  await app.register(licenseRoutes(db));
  await app.register(invoiceRoutes(db, mailSettings, invoicePayment));
  await app.register(integrationKeyRoutes(db));
  await app.register(integrationRoutes(db, { rateLimitPerMinute: integrationRateLimitPerMinute }));
  await app.register(auditRoutes(db));
  await app.register(insightsRoutes(db));
  // Mail goes out only through SMTP; without it (the embedded default) it waits in the outbox (issue 33).
  await app.register(mailOutboxRoutes(db, mail?.smtpUrl || mail?.transport ? 'smtp' : 'log'));

  const serveWeb = webDistDir !== undefined && existsSync(path.join(webDistDir, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, { root: webDistDir, wildcard: false, index: false });
  }
  if (mail) {
    let worker: MailWorker | undefined;
    app.addHook('onReady', async () => {
      const from = mail.from ?? `Allot <no-reply@${new URL(publicUrl).hostname}>`;
      const transport =
        mail.transport ?? (mail.smtpUrl ? smtpTransport(mail.smtpUrl, from) : logTransport(app.log));
      worker = startMailWorker(db, transport, app.log, mail.worker);
    });
    app.addHook('onClose', async () => {
      await worker?.stop();
    });
  }
  if (expiryReminders) {
    let job: ExpiryReminderJob | undefined;
    app.addHook('onReady', async () => {
      job = startExpiryReminderJob(db, mailSettings, app.log, expiryReminders);
    });
    app.addHook('onClose', async () => {
      await job?.stop();
    });
  }

  if (insightsJobs) {
    let jobs: InsightsJobs | undefined;
    app.addHook('onReady', async () => {
      jobs = startInsightsJobs(db, mailSettings, app.log, insightsJobs);
    });
    app.addHook('onClose', async () => {
      await jobs?.stop();
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !request.url.startsWith('/api/');
    if (serveWeb && wantsPage) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send({ error: 'not_found', message: APP_MSG.notFound });
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
