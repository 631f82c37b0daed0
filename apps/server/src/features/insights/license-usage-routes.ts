import { errorBodySchema } from '@allot/domain/errors';
import {
  IDLE_SEAT_DAYS,
  IDLE_SEAT_LIST_LIMIT,
  licenseUsageQuerySchema,
  licenseUsageSchema,
} from '@allot/domain/insights';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../http/authenticate';
import { replicaReads } from '../../http/replica-reads';
import { getLicenseUsage } from './read-license-usage';

/** Seat use of an organization's licences (decision 014). */
export function licenseUsageRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organization/:id/license-usage',
      {
        schema: {
          operationId: 'getLicenseUsage',
          tags: ['insights'],
          summary: 'Seat use of an organization’s licences',
          description: `For each licence of this organization (not of those below it): seats used and the maximum per UTC day over the last \`days\` days (7–365, default 90; a day without a change has the figures of the day before; days before the licence's first record are left out), and its idle seats: members for at least ${IDLE_SEAT_DAYS} days holding a seat of it who consumed no credits in this organization in the last ${IDLE_SEAT_DAYS} days, never used first, then the longest idle (\`count\` of all, the first ${IDLE_SEAT_LIST_LIMIT} listed). Permission: \`view_audit_logs\` on the organization.`,
          params: organizationIdParamsSchema,
          querystring: licenseUsageQuerySchema,
          response: { 200: licenseUsageSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        getLicenseUsage(await replicaReads(request), authOf(request), request.params.id, request.query.days),
    );
  };
}
