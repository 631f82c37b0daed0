import { successResponseSchema } from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import {
  createOrganizationRequestSchema,
  ORGANIZATION_SORT_KEYS,
  organizationCreditsSchema,
  organizationIdParamsSchema,
  organizationQuerySchema,
  organizationSchema,
  organizationSummarySchema,
  parentOrganizationsSchema,
  updateOrganizationRequestSchema,
} from '@allot/domain/organizations';
import { pageOf, paginationQuerySchema } from '@allot/domain/pagination';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import type { MailSettings } from '../mail/public-links';
import {
  getOrganizationCredits,
  getParentOrganizations,
  listSubOrganizations,
  searchOrganizations,
} from './read-service';
import { getOrganization, listMyOrganizations } from './service';
import { createOrganization, deleteOrganization, updateOrganization } from './write-service';

const tags = ['organizations'];
const security = [{ bearer: [] }];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const organizationListQuery = paginationQuerySchema(ORGANIZATION_SORT_KEYS);

export function organizationRoutes(db: Db, mail: MailSettings): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organization',
      {
        schema: {
          tags,
          security,
          summary: 'Organizations where the caller holds a role directly (system admin: the roots)',
          response: { 200: z.array(organizationSummarySchema), 401: errorBodySchema },
        },
      },
      async (request) => listMyOrganizations(db, authOf(request)),
    );

    app.get(
      '/api/organization/search',
      {
        schema: {
          tags,
          security,
          summary: 'Organizations anywhere in the caller’s subtrees, paginated',
          querystring: organizationListQuery,
          response: { 200: pageOf(organizationSummarySchema), 400: errorBodySchema, 401: errorBodySchema },
        },
      },
      async (request) => searchOrganizations(db, authOf(request), request.query),
    );

    app.get(
      '/api/organization/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One organization; each query flag adds that part',
          params: organizationIdParamsSchema,
          querystring: organizationQuerySchema,
          response: { 200: organizationSchema, 401: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => getOrganization(db, authOf(request), request.params.id, request.query),
    );

    app.get(
      '/api/organization/:id/sub-organizations',
      {
        schema: {
          tags,
          security,
          summary: 'Direct children, paginated, searched by name, sorted',
          params: organizationIdParamsSchema,
          querystring: organizationListQuery,
          response: { 200: pageOf(organizationSummarySchema), ...errors },
        },
      },
      async (request) => listSubOrganizations(db, authOf(request), request.params.id, request.query),
    );

    app.get(
      '/api/organization/:id/parent-organizations',
      {
        schema: {
          tags,
          security,
          summary: 'Ancestors from the root down to the parent',
          params: organizationIdParamsSchema,
          response: { 200: parentOrganizationsSchema, 401: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => getParentOrganizations(db, authOf(request), request.params.id),
    );

    app.get(
      '/api/organization/:id/credits',
      {
        schema: {
          tags,
          security,
          summary: 'Pools, credits held by members, credits in the pools of the subtree below',
          params: organizationIdParamsSchema,
          response: { 200: organizationCreditsSchema, 401: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => getOrganizationCredits(db, authOf(request), request.params.id),
    );

    app.post(
      '/api/organization/create',
      {
        schema: {
          tags,
          security,
          summary:
            'Create an organization (a root needs create_root_org; a child create_child_org on the parent)',
          body: createOrganizationRequestSchema,
          response: { 201: organizationSchema, ...errors },
        },
      },
      async (request, reply) => {
        const organization = await createOrganization(db, authOf(request), request.body, mail);
        return reply.status(201).send(organization);
      },
    );

    app.post(
      '/api/organization/:id/update',
      {
        schema: {
          tags,
          security,
          summary: 'Change name, type and phone number (update_org)',
          params: organizationIdParamsSchema,
          body: updateOrganizationRequestSchema,
          response: { 200: organizationSchema, ...errors },
        },
      },
      async (request) => updateOrganization(db, authOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/organization/:id/delete',
      {
        schema: {
          tags,
          security,
          summary:
            'Delete an organization without sub-organizations (delete_org); its credits and seats go to the parent',
          params: organizationIdParamsSchema,
          response: { 200: successResponseSchema, ...errors, 409: errorBodySchema },
        },
      },
      async (request) => deleteOrganization(db, authOf(request), request.params.id),
    );
  };
}
