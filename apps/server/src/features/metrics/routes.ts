import { createHash, timingSafeEqual } from 'node:crypto';
import { errorBodySchema } from '@allot/domain/errors';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import pg from 'pg';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { bearerToken } from '../../http/authenticate';
import { gaugeOf, metricsText, registry } from '../../lib/metrics';

/** The database the gauges below read: the app's (one per process; the last app built in a test). */
let source: Db | null = null;

const poolOf = () => {
  const pool = (source as { $client?: unknown } | null)?.$client;
  return pool instanceof pg.Pool ? pool : null;
};
gaugeOf(
  'allot_db_pool_connections',
  'Database connections this process holds',
  'sum',
  () => poolOf()?.totalCount ?? null,
);
gaugeOf('allot_db_pool_connections_idle', 'Of those, idle', 'sum', () => poolOf()?.idleCount ?? null);
gaugeOf(
  'allot_db_pool_waiting',
  'Queries and transactions waiting for a connection (the pool is full)',
  'sum',
  () => poolOf()?.waitingCount ?? null,
);

let outbox: Promise<{ pending: number; oldest: number }> | null = null;
/** One read of the outbox for both of its gauges. */
const readOutbox = () => {
  outbox ??= (async () => {
    if (!source) return { pending: 0, oldest: 0 };
    const [row] = await rows<{ pending: number; oldest: number | string | null }>(
      source,
      sql`select count(*)::int as pending, extract(epoch from now() - min(created_at)) as oldest
        from mail_outbox where status = 'pending'`,
    );
    return { pending: row?.pending ?? 0, oldest: Number(row?.oldest ?? 0) };
  })().finally(() => setTimeout(() => (outbox = null), 0));
  return outbox;
};
gaugeOf(
  'allot_mail_outbox_pending',
  'Mails waiting in the outbox',
  'max',
  async () => (await readOutbox()).pending,
);
gaugeOf(
  'allot_mail_outbox_oldest_seconds',
  'Age of the oldest mail waiting in the outbox (0 when none waits)',
  'max',
  async () => (await readOutbox()).oldest,
);

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /api/metrics (issue 35): Prometheus's text format, off (`404`) unless `METRICS_TOKEN` is set, and then
 * only with that token as the bearer (`401` otherwise).
 */
export function metricsRoutes(db: Db, token: string | undefined): FastifyPluginAsyncZod {
  source = db;
  return async (app) => {
    app.get(
      '/api/metrics',
      {
        config: { public: true },
        schema: {
          operationId: 'getMetrics',
          tags: ['operations'],
          summary: 'Metrics for Prometheus',
          description:
            'The server’s metrics in Prometheus’s text format: requests by route and status with their durations, the database pool, ledger postings and consumptions by outcome, the mail outbox’s backlog and its oldest mail, each background job’s last run, rate-limit refusals, and Node’s own (CPU, memory, event loop). With several server processes, the sum of those that answered within 2 s (`allot_metrics_processes_answered`, against `allot_metrics_processes_expected`): a process starting or stopping is left out, never a failed scrape. Off (`404`) unless the server has `METRICS_TOKEN`; then the bearer must be that token (`401` otherwise). See docs/OPERATIONS.md.',
          response: {
            200: {
              description: 'The metrics.',
              content: { 'text/plain': { schema: z.string() } },
            },
            401: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        if (!token) throw AppError.notFound();
        const given = bearerToken(request);
        if (!given || !timingSafeEqual(digest(given), digest(token))) throw AppError.unauthorized();
        const text = await metricsText();
        return reply.type(registry.contentType).send(text);
      },
    );
  };
}
