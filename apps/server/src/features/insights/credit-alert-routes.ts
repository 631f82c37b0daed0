import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

/** Low-balance alert thresholds (CONTRACT §10). */
export function creditAlertRoutes(_db: Db): FastifyPluginAsyncZod {
  return async () => {};
}
