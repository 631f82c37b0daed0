import { errorBodySchema } from '@allot/domain/errors';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import { pageOf, paginationQuerySchema } from '@allot/domain/pagination';
import {
  ORGANIZATION_USER_SORT_KEYS,
  organizationUserSchema,
  USER_SEARCH_SORT_KEYS,
  userSearchItemSchema,
} from '@allot/domain/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { listOrganizationUsers, searchUsers } from './read-service';

const tags = ['users'];
const security = [{ bearer: [] }];

export function userRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/user/search',
      {
        schema: {
          tags,
          security,
          summary: 'Users in the caller’s subtrees, with the organizations they belong to',
          querystring: paginationQuerySchema(USER_SEARCH_SORT_KEYS),
          response: { 200: pageOf(userSearchItemSchema), 400: errorBodySchema, 401: errorBodySchema },
        },
      },
      async (request) => searchUsers(db, authOf(request), request.query),
    );

    app.get(
      '/api/organization/:id/users',
      {
        schema: {
          tags,
          security,
          summary: 'Members of an organization with role, credits and licence (manage_users)',
          params: organizationIdParamsSchema,
          querystring: paginationQuerySchema(ORGANIZATION_USER_SORT_KEYS).extend({
            withCredits: z.enum(['true', 'false']).optional(),
          }),
          response: {
            200: pageOf(organizationUserSchema),
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request) => listOrganizationUsers(db, authOf(request), request.params.id, request.query),
    );
  };
}
