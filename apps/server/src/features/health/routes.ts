import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';

const healthSchema = z
  .object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unavailable']) })
  .meta({ id: 'Health' });

export function healthRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/health',
      {
        config: { public: true },
        schema: {
          operationId: 'getHealth',
          tags: ['health'],
          summary: 'Check the service',
          description: 'Liveness and a database check, for load balancers. Public: needs no token.',
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
  };
}
