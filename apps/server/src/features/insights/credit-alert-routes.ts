import { errorBodySchema } from '@allot/domain/errors';
import { creditAlertSettingsSchema, creditAlertsSchema, MAX_CREDIT_ALERTS } from '@allot/domain/insights';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { writeRoute } from '../../http/write-route';
import { getCreditAlerts, putCreditAlerts } from './set-credit-alerts';

const tags = ['insights'];
const PERMISSION = 'Permission: `view_audit_logs` on the organization.';
const ANSWER =
  '`thresholds` as saved, and to explain them: the shared pool now (`sharedCredits`), the pool right after its last top-up (`referenceBalance`), and per threshold its level in credits and whether it fired since the last top-up (`levels`, in the same order).';

/** Low-balance alert thresholds (CONTRACT §10). */
export function creditAlertRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organization/:id/credit-alerts',
      {
        schema: {
          operationId: 'getCreditAlerts',
          tags,
          summary: 'Read the low-balance alert thresholds',
          description: `The thresholds on this organization’s shared pool (none by default: alerts off). ${ANSWER} ${PERMISSION}`,
          params: organizationIdParamsSchema,
          response: { 200: creditAlertSettingsSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => getCreditAlerts(db, authOf(request), request.params.id),
    );

    app.put(
      '/api/organization/:id/credit-alerts',
      {
        schema: {
          operationId: 'putCreditAlerts',
          tags,
          summary: 'Set the low-balance alert thresholds',
          description: `Replaces the thresholds (at most ${MAX_CREDIT_ALERTS}; an empty list turns the alerts off): a number of credits, or a percentage of the shared pool right after its last top-up. Saving re-arms every threshold. The first posting that leaves the pool at or below a threshold's level after a top-up sends one mail to the organization's owner and admins. ${ANSWER} ${PERMISSION}`,
          params: organizationIdParamsSchema,
          body: creditAlertsSchema,
          response: { 200: creditAlertSettingsSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) =>
          putCreditAlerts(tx, authOf(request), request.params.id, request.body),
        ),
    );
  };
}
