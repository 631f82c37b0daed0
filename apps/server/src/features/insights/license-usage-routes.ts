import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

/** Seat use of an organization's licences (decision 014). */
export function licenseUsageRoutes(_db: Db): FastifyPluginAsyncZod {
  return async () => {};
}
