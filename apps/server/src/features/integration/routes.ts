import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

/** The classroom product's calls (CONTRACT §9): entitlement and consumption, with an integration key. */
export function integrationRoutes(_db: Db): FastifyPluginAsyncZod {
  return async () => {};
}
