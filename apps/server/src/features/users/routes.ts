import { errorBodySchema } from '@allot/domain/errors';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import { pageOf, paginationQuerySchema } from '@allot/domain/pagination';
import { idSchema } from '@allot/domain/text';
import {
  bulkImportPreviewSchema,
  bulkImportRequestSchema,
  bulkImportResponseSchema,
  createUserRequestSchema,
  ORGANIZATION_USER_SORT_KEYS,
  organizationUserSchema,
  removeUsersRequestSchema,
  removeUsersResponseSchema,
  roleChangeSchema,
  USER_SEARCH_SORT_KEYS,
  updateUserLicensesRequestSchema,
  updateUserRequestSchema,
  updateUserRoleRequestSchema,
  userAccountSchema,
  userSearchItemSchema,
} from '@allot/domain/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import type { MailSettings } from '../mail/public-links';
import { createUser, importUsers, previewImport } from './add-service';
import { listOrganizationUsers, searchUsers } from './read-service';
import { removeUsers } from './remove-service';
import { updateUserRole } from './role-service';
import { updateUser, updateUserLicenses } from './update-service';

const tags = ['users'];
const security = [{ bearer: [] }];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const userIdParamsSchema = z.object({ id: idSchema });
/** An import of 20,000 rows is a few MB of JSON. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

export function userRoutes(db: Db, mail: MailSettings): FastifyPluginAsyncZod {
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
          response: { 200: pageOf(organizationUserSchema), ...errors },
        },
      },
      async (request) => listOrganizationUsers(db, authOf(request), request.params.id, request.query),
    );

    app.post(
      '/api/user/create',
      {
        schema: {
          tags,
          security,
          summary: 'Add a person to an organization: invited by mail, given a licence seat (manage_users)',
          body: createUserRequestSchema,
          response: { 201: organizationUserSchema, 402: errorBodySchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createUser(db, authOf(request), request.body, mail)),
    );

    app.post(
      '/api/user/:id/update',
      {
        schema: {
          tags,
          security,
          summary: 'Change the name, email or locale of an account',
          params: userIdParamsSchema,
          body: updateUserRequestSchema,
          response: { 200: userAccountSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => updateUser(db, authOf(request), request.params.id, request.body, mail),
    );

    app.post(
      '/api/user/:id/update/role',
      {
        schema: {
          tags,
          security,
          summary:
            'Change a member’s role; making an owner turns the current owner into an admin (assign_roles)',
          params: userIdParamsSchema,
          body: updateUserRoleRequestSchema,
          response: { 200: z.array(roleChangeSchema), 422: errorBodySchema, ...errors },
        },
      },
      async (request) => updateUserRole(db, authOf(request), request.params.id, request.body),
    );

    app.post(
      '/api/user/update/licenses',
      {
        schema: {
          tags,
          security,
          summary: 'Move members onto one licence of the organization (manage_users)',
          body: updateUserLicensesRequestSchema,
          response: { 200: z.array(organizationUserSchema), 422: errorBodySchema, ...errors },
        },
      },
      async (request) => updateUserLicenses(db, authOf(request), request.body),
    );

    app.post(
      '/api/user/remove',
      {
        schema: {
          tags,
          security,
          summary: 'End memberships: seats freed, credits back to the shared pool (manage_users)',
          body: removeUsersRequestSchema,
          response: { 200: removeUsersResponseSchema, 422: errorBodySchema, ...errors },
        },
      },
      async (request) => removeUsers(db, authOf(request), request.body),
    );

    app.post(
      '/api/user/bulk/preview',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags,
          security,
          summary: 'What an import would add and skip, and the seats it takes; nothing is written',
          body: bulkImportRequestSchema,
          response: { 200: bulkImportPreviewSchema, ...errors },
        },
      },
      async (request) => previewImport(db, authOf(request), request.body),
    );

    app.post(
      '/api/user/bulk',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags,
          security,
          summary: 'Import users: skipped rows explained; 402 when the seats ran out part-way (manage_users)',
          body: bulkImportRequestSchema,
          response: { 200: bulkImportResponseSchema, 402: errorBodySchema, 500: errorBodySchema, ...errors },
        },
      },
      async (request) => importUsers(db, authOf(request), request.body, mail),
    );
  };
}
