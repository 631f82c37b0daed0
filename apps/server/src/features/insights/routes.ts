import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { creditAlertRoutes } from './credit-alert-routes';
import { creditUsageRoutes } from './credit-usage-routes';
import { licenseUsageRoutes } from './license-usage-routes';

/** Credit use and its forecast, seat use, low-balance alert thresholds (CONTRACT §10; decision 014). */
export function insightsRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(creditUsageRoutes(db));
    await app.register(creditAlertRoutes(db));
    await app.register(licenseUsageRoutes());
  };
}
