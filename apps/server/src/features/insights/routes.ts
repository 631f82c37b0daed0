import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

/** Credit use and its forecast, seat use, low-balance alert thresholds (CONTRACT §10; decision 014). */
export function insightsRoutes(_db: Db): FastifyPluginAsyncZod {
  return async () => {};
}
