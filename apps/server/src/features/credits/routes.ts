import {
  allocateSystemCreditsRequestSchema,
  assignOrganizationsRequestSchema,
  assignUsersRequestSchema,
  creditLogPageSchema,
  creditLogQuerySchema,
  creditMoveResponseSchema,
  reclaimOrganizationsRequestSchema,
  reclaimUsersRequestSchema,
  transferOrganizationsRequestSchema,
  transferPoolsRequestSchema,
  transferUsersRequestSchema,
} from '@allot/domain/credits';
import { errorBodySchema } from '@allot/domain/errors';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { listCreditLog } from './credit-log';
import { idempotencyOf, idempotentWrite } from './idempotency';
import {
  allocateSystemCredits,
  assignOrganizations,
  reclaimOrganizations,
  transferOrganizations,
  transferPools,
} from './organization-moves';
import { assignUsers, reclaimUsers, transferUsers } from './user-moves';

const tags = ['credits'];
const security = [{ bearer: [] }];
const moveErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};
const idempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .describe('1–255 printable characters; a repeat with the same key and body answers the first answer'),
});

/** The moves of spec §7 "Credits" and the system allocation (CONTRACT §5), each one transaction. */
const MOVES = [
  [
    '/api/credit/transfer/pools',
    'Move credits between an organization’s two pools (transfer_org_credits)',
    transferPoolsRequestSchema,
    transferPools,
  ],
  [
    '/api/credit/assign/organizations',
    'Allocate `amount` to each organization below the source (transfer_org_credits)',
    assignOrganizationsRequestSchema,
    assignOrganizations,
  ],
  [
    '/api/credit/reclaim/organizations',
    'Reclaim `amount` from each organization below the target (transfer_org_credits)',
    reclaimOrganizationsRequestSchema,
    reclaimOrganizations,
  ],
  [
    '/api/credit/transfer/organizations',
    'Transfer between two organizations the caller manages (transfer_org_credits on both)',
    transferOrganizationsRequestSchema,
    transferOrganizations,
  ],
  [
    '/api/credit/assign/users',
    'Allocate `amount` to each member from a pool of their organization (manage_users)',
    assignUsersRequestSchema,
    assignUsers,
  ],
  [
    '/api/credit/reclaim/users',
    'Reclaim `amount` from each member into a pool of their organization (manage_users)',
    reclaimUsersRequestSchema,
    reclaimUsers,
  ],
  [
    '/api/credit/transfer/users',
    'Transfer from one person’s balance to another’s (manage_users over both)',
    transferUsersRequestSchema,
    transferUsers,
  ],
  [
    '/api/credit/allocate/system',
    'Mint credits into an organization’s pool (system admins)',
    allocateSystemCreditsRequestSchema,
    allocateSystemCredits,
  ],
] as const;

export function creditRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    for (const [url, summary, body, move] of MOVES) {
      app.post(
        url,
        {
          schema: {
            tags,
            security,
            summary,
            body,
            headers: idempotencyHeader,
            response: { 200: creditMoveResponseSchema, ...moveErrors },
          },
        },
        async (request, reply) => {
          const user = authOf(request);
          const answer = await idempotentWrite(db, user, idempotencyOf(request), (tx) =>
            move(tx, user, request.body as never),
          );
          if (answer.replayed) reply.header('idempotent-replayed', 'true');
          return reply.status(answer.status).send(answer.body as never);
        },
      );
    }

    app.get(
      '/api/organization/:id/credit-log',
      {
        schema: {
          tags,
          security,
          summary: 'The credit log of an organization, newest first, by cursor (view_audit_logs)',
          params: organizationIdParamsSchema,
          querystring: creditLogQuerySchema,
          response: {
            200: creditLogPageSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request) => listCreditLog(db, authOf(request), request.params.id, request.query),
    );
  };
}
