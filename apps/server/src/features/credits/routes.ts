import {
  allocateSystemCreditsRequestSchema,
  assignOrganizationsRequestSchema,
  assignUsersRequestSchema,
  creditLogExportQuerySchema,
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
import { authOf, bearerToken, sessionFirstRead } from '../../http/authenticate';
import { csvFileName, sendCsv } from '../../http/csv-download';
import { idempotencyHeader, idempotencyOf, replyAnswer } from '../../http/idempotency';
import { replicaReads } from '../../http/replica-reads';
import { idempotentAnswer, writeRoute } from '../../http/write-route';
import { exportCreditLog, listCreditLog } from './list-credit-log';
import {
  allocateSystemCredits,
  assignOrganizations,
  planAssignOrganizations,
  planTransferOrganizations,
  planTransferPools,
  reclaimOrganizations,
  transferOrganizations,
  transferPools,
} from './move-organization-credits';
import { MoveQueue } from './move-queue';
import { assignUsers, reclaimUsers, transferUsers } from './move-user-credits';

const tags = ['credits'];
const moveErrors = { 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema };
const MOVE_ANSWER =
  ' Answers the balances every party holds after the move. `422 insufficient_credits` when a source holds too little (`details.available` for a named source). With an `Idempotency-Key`, a repeat answers the first answer (header `Idempotent-Replayed: true`); the same key with another body is `409 idempotency_key_reused`.';

/** The moves of spec §7 "Credits" and the system allocation (CONTRACT §5), each one transaction. */
const MOVES = [
  {
    url: '/api/credit/transfer/pools',
    operationId: 'transferCreditsBetweenPools',
    summary: 'Move credits between an organization’s pools',
    description:
      'From its shared pool to its protected pool or back. Permission: `transfer_org_credits` on it.',
    body: transferPoolsRequestSchema,
    move: transferPools,
    plan: planTransferPools,
  },
  {
    url: '/api/credit/assign/organizations',
    operationId: 'assignCreditsToOrganizations',
    summary: 'Allocate credits to organizations below',
    description:
      '`amount` to each target, from a pool of the source into a pool of each target; the targets must be below the source (any depth). Permission: `transfer_org_credits` on the source.',
    body: assignOrganizationsRequestSchema,
    move: assignOrganizations,
    plan: planAssignOrganizations,
  },
  {
    url: '/api/credit/reclaim/organizations',
    operationId: 'reclaimCreditsFromOrganizations',
    summary: 'Reclaim credits from organizations below',
    description:
      '`amount` from each source below the target, taken from its pools by `reclaimFromStrategy`. Permission: `transfer_org_credits` on the target.',
    body: reclaimOrganizationsRequestSchema,
    move: reclaimOrganizations,
  },
  {
    url: '/api/credit/transfer/organizations',
    operationId: 'transferCreditsBetweenOrganizations',
    summary: 'Transfer credits between two organizations',
    description:
      'From a pool of one organization to a pool of another. Permission: `transfer_org_credits` on both.',
    body: transferOrganizationsRequestSchema,
    move: transferOrganizations,
    plan: planTransferOrganizations,
  },
  {
    url: '/api/credit/assign/users',
    operationId: 'assignCreditsToUsers',
    summary: 'Give credits to members',
    description:
      '`amount` to each member, from a pool of their organization. Permission: `manage_users` on the organization.',
    body: assignUsersRequestSchema,
    move: assignUsers,
  },
  {
    url: '/api/credit/reclaim/users',
    operationId: 'reclaimCreditsFromUsers',
    summary: 'Take credits back from members',
    description:
      '`amount` from each member into a pool of their organization. Permission: `manage_users` on the organization.',
    body: reclaimUsersRequestSchema,
    move: reclaimUsers,
  },
  {
    url: '/api/credit/transfer/users',
    operationId: 'transferCreditsBetweenUsers',
    summary: 'Transfer credits between two people',
    description:
      'From one person’s balance to another’s. Permission: `manage_users` on an organization each of them belongs to.',
    body: transferUsersRequestSchema,
    move: transferUsers,
  },
  {
    url: '/api/credit/allocate/system',
    operationId: 'allocateSystemCredits',
    summary: 'Mint credits into an organization',
    description:
      'Adds new credits to a pool of an organization, with a description for its credit log. Permission: system admins only.',
    body: allocateSystemCreditsRequestSchema,
    move: allocateSystemCredits,
  },
] as const;

export interface CreditRouteOptions {
  /** Shared transactions of credit moves running at once in this process (move-queue.ts); 1 by default. */
  moveTransactions?: number | undefined;
}

export function creditRoutes(db: Db, options: CreditRouteOptions = {}): FastifyPluginAsyncZod {
  const queue = new MoveQueue(db, options.moveTransactions ?? 1);
  return async (app) => {
    for (const entry of MOVES) {
      const { url, operationId, summary, description, body, move } = entry;
      const plan = 'plan' in entry ? entry.plan : undefined;
      app.post(
        url,
        {
          schema: {
            operationId,
            tags,
            summary,
            description: description + MOVE_ANSWER,
            body,
            headers: idempotencyHeader,
            response: { 200: creditMoveResponseSchema, ...moveErrors },
          },
          // The session is read in the move's own transaction, sent with its BEGIN (decision 006).
          config: { sessionInQuery: true },
        },
        async (request, reply) => {
          const input = request.body as never;
          if (!plan) {
            return writeRoute(db, request, reply, (tx) => move(tx, authOf(request), input), {
              idempotent: true,
            });
          }
          // A move whose lines its parties decide waits for a shared transaction when others run (decision 006).
          const idempotency = idempotencyOf(request);
          const answer = await queue.move({
            caller: bearerToken(request) ?? '',
            user: () => authOf(request),
            session: sessionFirstRead(request),
            plan: (tx, user) => plan(tx, user, input),
            idempotency,
            alone: () =>
              idempotentAnswer(db, request, (tx) => move(tx, authOf(request), input), {
                idempotent: { idempotency },
              }),
          });
          return replyAnswer(reply, answer);
        },
      );
    }

    app.get(
      '/api/organization/:id/credit-log',
      {
        schema: {
          operationId: 'listCreditLog',
          tags,
          summary: 'Read the credit log of an organization',
          description:
            'Every move that touched its pools or its members’ balances, newest first, between `from` and `to` (UTC days `YYYY-MM-DD`, both included) when given; pass `nextPageToken` as `pageToken` for the next page. Permission: `view_audit_logs` on the organization.',
          params: organizationIdParamsSchema,
          querystring: creditLogQuerySchema,
          response: { 200: creditLogPageSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        listCreditLog(await replicaReads(request), authOf(request), request.params.id, request.query),
    );

    app.get(
      '/api/organization/:id/credit-log/export',
      {
        schema: {
          operationId: 'exportCreditLog',
          tags,
          summary: 'Export the credit log as CSV',
          description:
            'A CSV file (streamed) with a header row, then exactly the entries the credit log lists for the same `from` and `to` (UTC days `YYYY-MM-DD`, both included), every page, newest first. Permission: `view_audit_logs` on the organization.',
          params: organizationIdParamsSchema,
          querystring: creditLogExportQuerySchema,
          response: {
            200: { description: 'The CSV file.', content: { 'text/csv': { schema: z.string() } } },
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          csvFileName('credit-log'),
          await exportCreditLog(
            await replicaReads(request),
            authOf(request),
            request.params.id,
            request.query,
          ),
        ),
    );
  };
}
