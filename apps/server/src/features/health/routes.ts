import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { pendingMigrations } from '../../db/migrate';

const healthSchema = z
  .object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unavailable']) })
  .meta({ id: 'Health' });

const liveSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Liveness' });

const readySchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    database: z.enum(['ok', 'unavailable']),
    migrations: z
      .enum(['applied', 'pending', 'unknown'])
      .describe(
        'Whether every migration of this build is applied; unknown while the database does not answer',
      ),
    stopping: z.boolean().describe('The process is shutting down: it finishes what it has and takes no more'),
  })
  .meta({ id: 'Readiness' });
type Readiness = z.infer<typeof readySchema>;

/** What the readiness check knows of its process: whether it is shutting down (server-process.ts). */
export interface ProcessState {
  stopping: boolean;
}

const tags = ['health'];

export function healthRoutes(db: Db, state: ProcessState): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/health',
      {
        config: { public: true },
        schema: {
          operationId: 'getHealth',
          tags,
          summary: 'Check the service',
          description:
            'Liveness and a database check, for load balancers. Public: needs no token. `GET /api/health/live` and `GET /api/health/ready` say each on its own.',
          response: { 200: healthSchema, 503: healthSchema.describe('The database does not answer') },
        },
      },
      async (_request, reply) => {
        try {
          await db.execute(sql`select 1`);
          return { status: 'ok' as const, database: 'ok' as const };
        } catch {
          return reply.status(503).send({ status: 'degraded', database: 'unavailable' });
        }
      },
    );

    app.get(
      '/api/health/live',
      {
        config: { public: true },
        schema: {
          operationId: 'getLiveness',
          tags,
          summary: 'Is the process alive?',
          description:
            'Answers as long as the process answers at all, without asking the database: restart the process when it does not. Public.',
          response: { 200: liveSchema },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/api/health/ready',
      {
        config: { public: true },
        schema: {
          operationId: 'getReadiness',
          tags,
          summary: 'May the process take traffic?',
          description:
            '`200` when the database answers, every migration of this build is applied and the process is not shutting down; `503` otherwise, saying which. Send traffic only to ready processes. Public.',
          response: { 200: readySchema, 503: readySchema },
        },
      },
      async (_request, reply) => {
        const answer: Readiness = {
          status: 'ready',
          database: 'ok',
          migrations: 'applied',
          stopping: state.stopping,
        };
        try {
          answer.migrations = (await pendingMigrations(db)).length === 0 ? 'applied' : 'pending';
        } catch {
          answer.database = 'unavailable';
          answer.migrations = 'unknown';
        }
        const ready = answer.database === 'ok' && answer.migrations === 'applied' && !answer.stopping;
        if (ready) return answer;
        return reply.status(503).send({ ...answer, status: 'not_ready' });
      },
    );
  };
}
