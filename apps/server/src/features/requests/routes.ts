import { errorBodySchema } from '@allot/domain/errors';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import {
  approveRequestSchema,
  createRequestSchema,
  declineRequestSchema,
  MAX_REQUEST_SEATS,
  organizationAboveSchema,
  REQUESTS_PER_DAY,
  requestListQuerySchema,
  requestPageSchema,
  requestSchema,
} from '@allot/domain/requests';
import { idSchema } from '@allot/domain/text';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { idempotencyHeader } from '../../http/idempotency';
import { replicaReads } from '../../http/replica-reads';
import { writeRoute } from '../../http/write-route';
import type { MailSettings } from '../mail';
import { cancelRequest } from './cancel-request';
import { createRequest } from './create-request';
import { approveRequest, declineRequest } from './decide-request';
import { readOrganizationAbove } from './get-organization-above';
import { getRequest } from './get-request';
import { listRequests } from './list-requests';
import { REQUEST_EXAMPLES } from './request-examples';

const tags = ['requests'];
const requestIdParams = z.object({ id: idSchema });
const IDEMPOTENT =
  ' With an `Idempotency-Key`, a repeat answers the first answer and changes nothing (header `Idempotent-Replayed: true`).';
const SEEN =
  ' `404` for a request the caller may not see: one of an organization it neither manages nor decides for.';
const DECIDER =
  'Permission: `transfer_org_credits` (credits) or `manage_org_license` (seats) on the organization asked, as the allocation itself needs; `403` for the asking side.';

/** Requests up the tree (CONTRACT §11, decision 017). */
export function requestRoutes(db: Db, mail: MailSettings): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/organization/:id/requests',
      {
        schema: {
          operationId: 'createRequest',
          tags,
          summary: 'Ask the organization above for credits or seats',
          description: `Asks the organization directly above \`{id}\` for \`amount\` credits into a pool of \`{id}\` (\`pool\`, shared by default) or for \`amount\` seats of \`licenseType\` (at most ${MAX_REQUEST_SEATS.toLocaleString('en-US')}); \`note\` says why. The request is \`open\` until the admins above approve or decline it or the asker cancels it; it is mailed to the owners and admins above and audit-logged in \`{id}\`. A top-level organization has nobody to ask: \`422\`. At most ${REQUESTS_PER_DAY} requests opened by one organization in 24 hours, cancelled ones included: \`429\` beyond.${IDEMPOTENT} Permission: \`transfer_org_credits\` (credits) or \`manage_org_license\` (seats) on \`{id}\`.`,
          params: organizationIdParamsSchema,
          body: createRequestSchema,
          headers: idempotencyHeader,
          response: {
            201: requestSchema,
            403: errorBodySchema,
            404: errorBodySchema,
            422: errorBodySchema,
            429: errorBodySchema,
          },
          examples: REQUEST_EXAMPLES.create,
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx) => createRequest(tx, authOf(request), request.params.id, request.body, mail),
          { status: 201, idempotent: true },
        ),
    );

    app.get(
      '/api/organization/:id/requests',
      {
        schema: {
          operationId: 'listRequests',
          tags,
          summary: 'List the requests asked of an organization, or its own',
          description:
            '`direction=incoming` (the default): the requests the organizations directly below `{id}` asked of it, open and past; `outgoing`: the requests `{id}` asked of the organization above it. `status` narrows the list; newest first, a page at a time. People outside `{id}`’s subtree and the organizations above it appear as someone outside this organization, as in its logs. Permission: incoming, `transfer_org_credits` or `manage_org_license` on `{id}`; outgoing, an owner’s or admin’s role on `{id}`.',
          params: organizationIdParamsSchema,
          querystring: requestListQuerySchema,
          response: { 200: requestPageSchema, 403: errorBodySchema, 404: errorBodySchema },
          examples: REQUEST_EXAMPLES.list,
        },
      },
      async (request) =>
        listRequests(await replicaReads(request), authOf(request), request.params.id, request.query),
    );

    app.get(
      '/api/organization/:id/above',
      {
        schema: {
          operationId: 'getOrganizationAbove',
          tags,
          summary: 'Who an organization would ask, and its open requests',
          description:
            'An addition to the contract (decision 017): the organization directly above `{id}` (`null` for a top-level one), who decides its requests there (the owners and admins of that organization, names and emails, or of the nearest one above it that has some), whether it holds at least one free seat of each licence type, and `openRequests`, the requests still open that the organizations below `{id}` asked of `{id}` (0 for a caller who does not decide them). Permission: an owner’s or admin’s role on `{id}`.',
          params: organizationIdParamsSchema,
          response: { 200: organizationAboveSchema, 404: errorBodySchema },
          examples: REQUEST_EXAMPLES.above,
        },
      },
      async (request) => readOrganizationAbove(db, authOf(request), request.params.id),
    );

    app.get(
      '/api/request/:id',
      {
        schema: {
          operationId: 'getRequest',
          tags,
          summary: 'One request',
          description:
            'An addition to the contract (issue 33): one request, as the lists show it, for the page a request’s mail links to. People outside the caller’s side appear as someone outside this organization, as in the lists: named as the organization asked names them for whoever manages it, else as the asking organization does. Permission: an owner’s or admin’s role on the asking organization or on the organization asked; `404` for anyone else, as for an id of nothing.',
          params: requestIdParams,
          response: { 200: requestSchema, 404: errorBodySchema },
          examples: REQUEST_EXAMPLES.get,
        },
      },
      async (request) => getRequest(db, authOf(request), request.params.id),
    );

    app.post(
      '/api/request/:id/approve',
      {
        // The body may be left out: approve all that was asked.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          operationId: 'approveRequest',
          tags,
          summary: 'Approve a request',
          description: `Gives \`amount\` (all that was asked when left out; more is \`422\`) in the same transaction: credits from the shared pool of the organization asked into the asked pool (as \`POST /api/credit/assign/organizations\`), seats of the asked type (as \`POST /api/license/assign/organizations\`), with their credit or licence log entries and audit entries. The spec’s refusals (\`422\`: not enough credits in the shared pool, not enough licences, no licence of the type) leave the request open and nothing moved. A request no longer open is \`409\`; of two approvals at once, one wins. The person who asked is mailed.${SEEN}${IDEMPOTENT} ${DECIDER}`,
          params: requestIdParams,
          body: approveRequestSchema,
          headers: idempotencyHeader,
          response: {
            200: requestSchema,
            403: errorBodySchema,
            404: errorBodySchema,
            409: errorBodySchema,
            422: errorBodySchema,
          },
          examples: REQUEST_EXAMPLES.approve,
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx) => approveRequest(tx, authOf(request), request.params.id, request.body, mail),
          { idempotent: true },
        ),
    );

    app.post(
      '/api/request/:id/decline',
      {
        schema: {
          operationId: 'declineRequest',
          tags,
          summary: 'Decline a request',
          description: `With the \`reason\` the person who asked is mailed. A request no longer open is \`409\`.${SEEN}${IDEMPOTENT} ${DECIDER}`,
          params: requestIdParams,
          body: declineRequestSchema,
          headers: idempotencyHeader,
          response: { 200: requestSchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
          examples: REQUEST_EXAMPLES.decline,
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx) => declineRequest(tx, authOf(request), request.params.id, request.body, mail),
          { idempotent: true },
        ),
    );

    app.post(
      '/api/request/:id/cancel',
      {
        schema: {
          operationId: 'cancelRequest',
          tags,
          summary: 'Cancel a request',
          description: `The asking side takes back a request still open (\`409\` otherwise). It still counts towards the day’s ${REQUESTS_PER_DAY}.${SEEN}${IDEMPOTENT} Permission: an owner’s or admin’s role on the asking organization.`,
          params: requestIdParams,
          headers: idempotencyHeader,
          response: { 200: requestSchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
          examples: REQUEST_EXAMPLES.cancel,
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => cancelRequest(tx, authOf(request), request.params.id), {
          idempotent: true,
        }),
    );
  };
}
