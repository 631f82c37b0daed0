import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

/** The panel's calls of integration keys and the daily limit (CONTRACT §9; needs manage_org_integration). */
export function integrationKeyRoutes(_db: Db): FastifyPluginAsyncZod {
  return async () => {};
}
