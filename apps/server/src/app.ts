import { existsSync } from 'node:fs';
import path from 'node:path';
import { APP_MSG } from '@allot/domain/messages';
import { type PublicConfig, UNPUBLISHED } from '@allot/domain/public-config';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from './db/client';
import { primaryOnly, type ReadRouting } from './db/read-replica';
import { auditRoutes } from './features/audit/routes';
import { mfaRoutes } from './features/auth/mfa-routes';
import { authRoutes } from './features/auth/routes';
import { findSession, sessionStatement } from './features/auth/sessions';
import { SIGN_IN_LIMITS, type SignInLimits } from './features/auth/sign-in-limits';
import { DEFAULT_SIGN_IN_SETTINGS, type SignInSettings } from './features/auth/sign-in-settings';
import { creditRoutes } from './features/credits/routes';
import { healthRoutes, type ProcessState } from './features/health/routes';
import { type InsightsJobOptions, startInsightsJobs } from './features/insights/jobs';
import { insightsRoutes } from './features/insights/routes';
import { liveKeyLookup } from './features/integration/key-auth';
import { integrationKeyRoutes } from './features/integration/key-routes';
import { integrationRoutes } from './features/integration/routes';
import { type InvoicePayment, NO_INVOICE_PAYMENT } from './features/invoices/invoice-payment';
import { invoiceRoutes } from './features/invoices/routes';
import { type ExpiryReminderJobOptions, startExpiryReminderJob } from './features/licenses/expiry-job';
import { licenseRoutes } from './features/licenses/routes';
import { type MailWorkerOptions, startMailWorker } from './features/mail/mail-worker';
import type { MailTransport } from './features/mail/outbox';
import { mailOutboxRoutes } from './features/mail/outbox-routes';
import type { MailSettings } from './features/mail/public-links';
import { logTransport, smtpTransport } from './features/mail/transports';
import { metricsRoutes } from './features/metrics/routes';
import { organizationRoutes } from './features/organizations/routes';
import { type PruneJobOptions, startPruneJob } from './features/pruning/prune-job';
import { publicConfigRoutes } from './features/public-config/routes';
import { requestRoutes } from './features/requests/routes';
import { accountRoutes } from './features/users/account-routes';
import { userRoutes } from './features/users/routes';
import { AccessLog } from './http/access-log';
import { registerAuthentication } from './http/authenticate';
import { invalidPath, registerErrorHandler } from './http/error-handler';
import { logSerializers } from './http/log-redaction';
import { registerOpenApi } from './http/openapi';
import { registerReplicaReads } from './http/replica-reads';
import { registerRequestMetrics } from './http/request-metrics';
import { registerSecurityHeaders } from './http/security-headers';
import { BackgroundWork } from './lib/background';
import type { RepeatingJob } from './lib/repeating-job';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work requests start and do not wait for (lib/background.ts). */
    background: BackgroundWork;
  }
}

export interface AppOptions {
  db: Db;
  /** With a read replica (`DATABASE_READ_URL`): where the reads that tolerate one run; else the primary. */
  reads?: ReadRouting | undefined;
  /** Built web app to serve beside the API; skipped when the folder does not exist. */
  webDistDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Behind a load balancer, whose X-Forwarded-For to trust for the client IP (TRUST_PROXY; sign-in limits). */
  trustProxy?: boolean | number | string;
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
  /**
   * Shared transactions at once in this process of single consumption calls, and as many of credit moves
   * (CONSUME_TRANSACTIONS).
   */
  consumeTransactions?: number | undefined;
  /**
   * REQUIRE_SYSTEM_ADMIN_MFA, MFA_ENCRYPTION_KEY and SESSION_MAX_DAYS (decision 015); by default neither of the
   * first two, and sessions of 30 days at most. What is not given keeps its default.
   */
  signIn?: Partial<SignInSettings>;
  /** How many wrong passwords sign-in allows (features/auth/sign-in-limits.ts); tests lower the ceiling. */
  signInLimits?: Partial<SignInLimits>;
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
  /** This process's pruning job (features/pruning). Off unless asked for: its tests call `pruneTables`. */
  pruning?: PruneJobOptions;
  /** Set by the process when it shuts down: readiness then answers `503` (features/health). */
  processState?: ProcessState;
  /** METRICS_TOKEN: `GET /api/metrics` answers only with this bearer token; off (`404`) without one. */
  metricsToken?: string | undefined;
  /** SUPPORT_EMAIL, TERMS_URL, PRIVACY_URL for the footer (GET /api/public-config); by default none. */
  publicConfig?: PublicConfig;
}

/** CONTRACT §1: bodies at most 1 MB; the import calls allow 16 MB (their own `bodyLimit`). */
export const BODY_LIMIT = 1024 * 1024;

export async function buildApp({
  db,
  reads = primaryOnly(db),
  webDistDir,
  logger = false,
  trustProxy = false,
  publicUrl = 'http://localhost:3000',
  invitationsPerDay,
  invoiceMailsPerDay,
  invoicePayment = NO_INVOICE_PAYMENT,
  integrationRateLimitPerMinute,
  consumeTransactions,
  signIn: signInOptions,
  signInLimits,
  mail,
  expiryReminders,
  insightsJobs,
  pruning,
  processState = { stopping: false },
  metricsToken,
  publicConfig = UNPUBLISHED,
}: AppOptions) {
  const app = Fastify({
    // The request log keeps no secret: URLs without tokens or emails, errors without query values.
    logger: logger === false ? false : { ...(logger === true ? {} : logger), serializers: logSerializers },
    // One line a request instead of two: http/access-log.ts.
    logController: new AccessLog(),
    // A number of proxies: the address that many hops back is the client's (Fastify types no number).
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
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
  registerRequestMetrics(app);
  registerAuthentication(app, (token) => findSession(db, token), liveKeyLookup(db), sessionStatement);
  registerReplicaReads(app, reads);

  await registerOpenApi(app, publicUrl);

  await app.register(healthRoutes(db, processState));
  await app.register(metricsRoutes(db, metricsToken));
  await app.register(publicConfigRoutes(publicConfig));
  const mailSettings: MailSettings = {
    publicUrl,
    ...(invitationsPerDay ? { invitationsPerDay } : {}),
    ...(invoiceMailsPerDay ? { invoiceMailsPerDay } : {}),
  };
  const signIn: SignInSettings = { ...DEFAULT_SIGN_IN_SETTINGS, ...signInOptions };
  await app.register(authRoutes(db, mailSettings, signIn, { ...SIGN_IN_LIMITS, ...signInLimits }));
  await app.register(mfaRoutes(db, signIn));
  await app.register(organizationRoutes(db, mailSettings, signIn));
  await app.register(userRoutes(db, mailSettings, signIn));
  await app.register(accountRoutes(db, mailSettings));
  await app.register(creditRoutes(db, { moveTransactions: consumeTransactions }));
  await app.register(licenseRoutes(db));
  await app.register(invoiceRoutes(db, mailSettings, invoicePayment));
  await app.register(requestRoutes(db, mailSettings));
  await app.register(integrationKeyRoutes(db));
  await app.register(
    integrationRoutes(db, { rateLimitPerMinute: integrationRateLimitPerMinute, consumeTransactions }),
  );
  await app.register(auditRoutes());
  await app.register(insightsRoutes(db));
  // Mail goes out only through SMTP; without it (the embedded default) it waits in the outbox (issue 33).
  await app.register(mailOutboxRoutes(db, mail?.smtpUrl || mail?.transport ? 'smtp' : 'log'));

  const serveWeb = webDistDir !== undefined && existsSync(path.join(webDistDir, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, { root: webDistDir, wildcard: false, index: false });
  }
  /** A job of this process: started when the app is ready, stopped (its run in progress awaited) on close. */
  const runWhileOpen = (start: () => RepeatingJob) => {
    let job: RepeatingJob | undefined;
    app.addHook('onReady', async () => {
      job = start();
    });
    app.addHook('onClose', async () => {
      await job?.stop();
    });
  };
  if (mail) {
    runWhileOpen(() => {
      const from = mail.from ?? `Allot <no-reply@${new URL(publicUrl).hostname}>`;
      const transport =
        mail.transport ?? (mail.smtpUrl ? smtpTransport(mail.smtpUrl, from) : logTransport(app.log));
      return startMailWorker(db, transport, app.log, mail.worker);
    });
  }
  if (expiryReminders) runWhileOpen(() => startExpiryReminderJob(db, mailSettings, app.log, expiryReminders));
  if (insightsJobs) runWhileOpen(() => startInsightsJobs(db, mailSettings, app.log, insightsJobs));
  if (pruning) runWhileOpen(() => startPruneJob(db, app.log, pruning));

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !request.url.startsWith('/api/');
    if (serveWeb && wantsPage) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send({ error: 'not_found', message: APP_MSG.notFound });
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
