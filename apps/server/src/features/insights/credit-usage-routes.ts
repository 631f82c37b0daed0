import { errorBodySchema } from '@allot/domain/errors';
import { creditUsageQuerySchema, creditUsageSchema, FORECAST_WINDOW_DAYS } from '@allot/domain/insights';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { replicaReads } from '../../http/replica-reads';
import { readCreditUsage } from './credit-usage';

/** Credit use over time and the forecast (CONTRACT §10). */
export function creditUsageRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organization/:id/credit-usage',
      {
        schema: {
          operationId: 'readCreditUsage',
          tags: ['insights'],
          summary: 'Read credit use over time and the forecast',
          description: `For the organization and its whole subtree, one entry per UTC day of the last \`days\` (7–365, default 90; today included, days without activity as zeros): credits received from outside the subtree, handed down to organizations below and to members, and consumed. The forecast: \`creditsAvailable\` (every pool of the subtree and the members’ balances held in it), \`meanDailyConsumption\` (the consumption of the ${FORECAST_WINDOW_DAYS} complete UTC days before today, divided by ${FORECAST_WINDOW_DAYS}) and \`runsOutOn\` (today plus floor(available / mean) days; \`null\` when nothing was consumed or when that is more than 365 days away). Permission: \`view_audit_logs\` on the organization.`,
          params: organizationIdParamsSchema,
          querystring: creditUsageQuerySchema,
          response: { 200: creditUsageSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        readCreditUsage(db, authOf(request), request.params.id, request.query, () => replicaReads(request)),
    );
  };
}
