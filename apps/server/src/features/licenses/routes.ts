import { successResponseSchema } from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import {
  assignLicensesRequestSchema,
  createLicenseRequestSchema,
  licenseLogPageSchema,
  licenseLogQuerySchema,
  licenseMoveResponseSchema,
  reclaimLicensesRequestSchema,
  updateLicenseRequestSchema,
} from '@allot/domain/licenses';
import { licenseSchema, organizationIdParamsSchema } from '@allot/domain/organizations';
import { idSchema } from '@allot/domain/text';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { idempotencyHeader } from '../../http/idempotency';
import { replicaReads } from '../../http/replica-reads';
import { writeRoute } from '../../http/write-route';
import { createLicense, deleteLicense, updateLicense } from './administer-licenses';
import { listLicenseLog } from './list-license-log';
import { assignLicenses, reclaimLicenses } from './move-licenses';

const tags = ['licenses'];
const licenseIdParams = z.object({ id: idSchema });
const SYSTEM_ADMIN = 'Permission: system admins only (`403` for anyone else).';

/** The licence calls of spec §7 and the licence log (CONTRACT §7, decision 009). */
export function licenseRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/license/create',
      {
        schema: {
          operationId: 'createLicense',
          tags,
          summary: 'Create a licence',
          description: `A licence of a type for an organization, with its seats and expiry; one per type (\`409\` for a second). ${SYSTEM_ADMIN}`,
          body: createLicenseRequestSchema,
          response: { 201: licenseSchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => createLicense(tx, authOf(request), request.body), {
          status: 201,
        }),
    );

    app.post(
      '/api/license/:id/update',
      {
        schema: {
          operationId: 'updateLicense',
          tags,
          summary: 'Update a licence',
          description: `Changes its seats (never below the seats in use: \`422\`) and expiry; a new expiry reaches the licences handed down from it. ${SYSTEM_ADMIN}`,
          params: licenseIdParams,
          body: updateLicenseRequestSchema,
          response: { 200: licenseSchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) =>
          updateLicense(tx, authOf(request), request.params.id, request.body),
        ),
    );

    app.delete(
      '/api/license/:id/delete',
      {
        schema: {
          operationId: 'deleteLicense',
          tags,
          summary: 'Delete a licence',
          description: `Only while none of its seats is in use or handed down (\`409\` otherwise). ${SYSTEM_ADMIN}`,
          params: licenseIdParams,
          response: {
            200: successResponseSchema,
            403: errorBodySchema,
            404: errorBodySchema,
            409: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => deleteLicense(tx, authOf(request), request.params.id)),
    );

    app.post(
      '/api/license/assign/organizations',
      {
        schema: {
          operationId: 'assignLicensesToOrganizations',
          tags,
          summary: 'Hand seats down to sub-organizations',
          description:
            'Each item gives `amount` free seats of its type to each target below the source (items of 0 are ignored; all in one transaction). A target without the type gets a licence of it with the source’s expiry. `422` with the spec’s texts: the source lacks the type, or has too few free seats. With an `Idempotency-Key`, a repeat answers the first answer and moves nothing (header `Idempotent-Replayed: true`). Permission: `manage_org_license` on the source.',
          body: assignLicensesRequestSchema,
          headers: idempotencyHeader,
          response: {
            200: licenseMoveResponseSchema,
            403: errorBodySchema,
            404: errorBodySchema,
            422: errorBodySchema,
          },
        },
        // The session is read in the move's own transaction, sent with its BEGIN (decision 006).
        config: { sessionInQuery: true },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => assignLicenses(tx, authOf(request), request.body), {
          idempotent: true,
        }),
    );

    app.post(
      '/api/license/reclaim/organizations',
      {
        schema: {
          operationId: 'reclaimLicensesFromOrganizations',
          tags,
          summary: 'Reclaim seats from sub-organizations',
          description:
            'Each item takes `amount` free seats of its type from each source below the target; seats in use are never reclaimed. `422` with the spec’s texts: a source or the target lacks the type, or a source has too few free seats. With an `Idempotency-Key`, a repeat answers the first answer and moves nothing (header `Idempotent-Replayed: true`). Permission: `manage_org_license` on the target.',
          body: reclaimLicensesRequestSchema,
          headers: idempotencyHeader,
          response: {
            200: licenseMoveResponseSchema,
            403: errorBodySchema,
            404: errorBodySchema,
            422: errorBodySchema,
          },
        },
        // The session is read in the move's own transaction, sent with its BEGIN (decision 006).
        config: { sessionInQuery: true },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => reclaimLicenses(tx, authOf(request), request.body), {
          idempotent: true,
        }),
    );

    app.get(
      '/api/organization/:id/license-log',
      {
        schema: {
          operationId: 'listLicenseLog',
          tags,
          summary: 'Read the licence log of an organization',
          description:
            'Every change of its licences’ seats and expiry, newest first; pass `nextPageToken` as `pageToken` for the next page. Permission: `manage_org_license` on the organization.',
          params: organizationIdParamsSchema,
          querystring: licenseLogQuerySchema,
          response: { 200: licenseLogPageSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        listLicenseLog(await replicaReads(request), authOf(request), request.params.id, request.query),
    );
  };
}
