import { errorBodySchema } from '@allot/domain/errors';
import {
  organizationIdParamsSchema,
  organizationQuerySchema,
  organizationSchema,
  organizationSummarySchema,
} from '@allot/domain/organizations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { getOrganization, listMyOrganizations } from './service';

export function organizationRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organization',
      {
        schema: {
          tags: ['organizations'],
          summary: 'Organizations where the caller holds a role directly (system admin: the roots)',
          security: [{ bearer: [] }],
          response: { 200: z.array(organizationSummarySchema), 401: errorBodySchema },
        },
      },
      async (request) => listMyOrganizations(db, authOf(request)),
    );

    app.get(
      '/api/organization/:id',
      {
        schema: {
          tags: ['organizations'],
          summary: 'One organization; each query flag adds that part',
          security: [{ bearer: [] }],
          params: organizationIdParamsSchema,
          querystring: organizationQuerySchema,
          response: { 200: organizationSchema, 401: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => getOrganization(db, authOf(request), request.params.id, request.query),
    );
  };
}
