import { successResponseSchema } from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import {
  createdIntegrationKeySchema,
  createIntegrationKeyRequestSchema,
  integrationKeySchema,
  integrationSettingsSchema,
  updateIntegrationSettingsRequestSchema,
} from '@allot/domain/integration';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import { idSchema } from '@allot/domain/text';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { replicaReads } from '../../http/replica-reads';
import { writeRoute } from '../../http/write-route';
import {
  createIntegrationKey,
  listIntegrationKeys,
  MAX_LIVE_INTEGRATION_KEYS,
  revokeIntegrationKey,
} from './manage-keys';
import { getIntegrationSettings, updateIntegrationSettings } from './set-integration-settings';

const tags = ['integration'];
const keyParams = z.object({ id: idSchema, keyId: idSchema });
const PERMISSION = 'Permission: `manage_org_integration` on the organization.';

/** The panel's calls of integration keys and the daily limit (CONTRACT §9; needs manage_org_integration). */
export function integrationKeyRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organization/:id/integration-keys',
      {
        schema: {
          operationId: 'listIntegrationKeys',
          tags,
          summary: 'List an organization’s integration keys',
          description: `The live keys of this organization (not of those below it), newest first, each with the first characters of the key; never the key itself. ${PERMISSION}`,
          params: organizationIdParamsSchema,
          response: { 200: z.array(integrationKeySchema), 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => listIntegrationKeys(await replicaReads(request), authOf(request), request.params.id),
    );

    app.post(
      '/api/organization/:id/integration-keys',
      {
        schema: {
          operationId: 'createIntegrationKey',
          tags,
          summary: 'Create an integration key',
          description: `A key for the classroom product, acting on the integration calls inside this organization’s subtree. \`key\` is in this answer only: the server keeps its hash. At most ${MAX_LIVE_INTEGRATION_KEYS} live keys per organization (\`422\` beyond). ${PERMISSION}`,
          params: organizationIdParamsSchema,
          body: createIntegrationKeyRequestSchema,
          response: {
            201: createdIntegrationKeySchema,
            403: errorBodySchema,
            404: errorBodySchema,
            422: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx) => createIntegrationKey(tx, authOf(request), request.params.id, request.body),
          {
            status: 201,
          },
        ),
    );

    app.delete(
      '/api/organization/:id/integration-keys/:keyId',
      {
        schema: {
          operationId: 'revokeIntegrationKey',
          tags,
          summary: 'Revoke an integration key',
          description: `The key is refused (\`401\`) from the next request on, on every server process. A key of another organization, or one already revoked, is \`404\`. ${PERMISSION}`,
          params: keyParams,
          response: { 200: successResponseSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) =>
          revokeIntegrationKey(tx, authOf(request), request.params.id, request.params.keyId),
        ),
    );

    app.get(
      '/api/organization/:id/integration-settings',
      {
        schema: {
          operationId: 'getIntegrationSettings',
          tags,
          summary: 'Read the daily consumption limit',
          description: `The most credits the classroom product may consume per UTC day by this organization’s own members (not those of organizations below, which have their own; \`null\`: no limit), and what they consumed today. ${PERMISSION}`,
          params: organizationIdParamsSchema,
          response: { 200: integrationSettingsSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => getIntegrationSettings(db, authOf(request), request.params.id),
    );

    app.post(
      '/api/organization/:id/integration-settings',
      {
        schema: {
          operationId: 'updateIntegrationSettings',
          tags,
          summary: 'Set the daily consumption limit',
          description: `A positive whole number of credits, or \`null\` for no limit. Consumptions that would pass it are refused with \`422 daily_limit\`; it applies from the next consumption. ${PERMISSION}`,
          params: organizationIdParamsSchema,
          body: updateIntegrationSettingsRequestSchema,
          response: { 200: integrationSettingsSchema, 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) =>
          updateIntegrationSettings(tx, authOf(request), request.params.id, request.body),
        ),
    );
  };
}
