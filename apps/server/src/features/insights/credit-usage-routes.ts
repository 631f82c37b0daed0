import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

/** Credit use over time and the forecast (CONTRACT §10). */
export function creditUsageRoutes(_db: Db): FastifyPluginAsyncZod {
  return async () => {};
}
