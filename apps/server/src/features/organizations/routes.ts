import { successResponseSchema } from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import {
  createOrganizationRequestSchema,
  ORGANIZATION_SORT_KEYS,
  organizationCreditsSchema,
  organizationIdParamsSchema,
  organizationQuerySchema,
  organizationSchema,
  organizationSearchPageSchema,
  organizationSecuritySchema,
  organizationSummarySchema,
  parentOrganizationsSchema,
  SUB_ORGANIZATION_SORT_KEYS,
  subOrganizationPageSchema,
  updateOrganizationRequestSchema,
  updateOrganizationSecurityRequestSchema,
} from '@allot/domain/organizations';
import { paginationQuerySchema } from '@allot/domain/pagination';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf, callerOf } from '../../http/authenticate';
import { replicaReads } from '../../http/replica-reads';
import { writeRoute } from '../../http/write-route';
import { countOwnCode, type SignInSettings } from '../auth';
import type { MailSettings } from '../mail';
import {
  getOrganizationCredits,
  getParentOrganizations,
  listSubOrganizations,
  searchOrganizations,
} from './find-organizations';
import { getOrganization, listMyOrganizations } from './get-organization';
import { updateOrganizationSecurity } from './update-organization-security';
import { createOrganization, deleteOrganization, updateOrganization } from './write-organizations';

const tags = ['organizations'];
const errors = { 403: errorBodySchema, 404: errorBodySchema };
const organizationListQuery = paginationQuerySchema(ORGANIZATION_SORT_KEYS);
const subOrganizationListQuery = paginationQuerySchema(SUB_ORGANIZATION_SORT_KEYS);

export function organizationRoutes(
  db: Db,
  mail: MailSettings,
  signIn: SignInSettings,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/organization',
      {
        schema: {
          operationId: 'listMyOrganizations',
          tags,
          summary: 'List the organizations where the caller holds a role',
          description:
            'The organizations where the caller holds a role directly (for a system admin: every root organization). Each carries `licenseExpiringSoon` when one of its licences expires within 30 days and has not expired yet (the one that expires first: its type and expiry; the picker flags it), read in the same query. Permission: any signed-in panel user.',
          response: { 200: z.array(organizationSummarySchema) },
        },
      },
      async (request) => listMyOrganizations(await replicaReads(request), authOf(request)),
    );

    app.get(
      '/api/organization/search',
      {
        schema: {
          operationId: 'searchOrganizations',
          tags,
          summary: 'Search organizations in the caller’s subtrees',
          description: `Organizations anywhere in the caller's subtrees, by name, paginated and sorted. Each carries its \`path\`: the ancestors the caller may see, from the highest down to the parent, so that two organizations of one name can be told apart (read for the page's rows only, in one statement). Permission: any signed-in panel user; only what the caller can see is listed. Roles reach down the hierarchy: a role in an organization applies to every organization below it.`,
          querystring: organizationListQuery,
          response: { 200: organizationSearchPageSchema },
        },
      },
      async (request) => searchOrganizations(await replicaReads(request), authOf(request), request.query),
    );

    app.get(
      '/api/organization/:id',
      {
        schema: {
          operationId: 'getOrganization',
          tags,
          summary: 'Get an organization',
          description:
            'One organization; each query flag set to `true` adds that part (licences, sub-organizations, credits, the caller’s role and permissions). Permission: a role in the organization or above it; otherwise `404`.',
          params: organizationIdParamsSchema,
          querystring: organizationQuerySchema,
          response: { 200: organizationSchema, 404: errorBodySchema },
        },
        // The most frequent read of the panel: its session is looked up in its own query.
        config: { sessionInQuery: true },
      },
      async (request) =>
        getOrganization(db, callerOf(request), request.params.id, request.query, () => replicaReads(request)),
    );

    app.get(
      '/api/organization/:id/sub-organizations',
      {
        schema: {
          operationId: 'listSubOrganizations',
          tags,
          summary: 'List the sub-organizations of an organization',
          description:
            'Direct children, paginated, searched by name, sorted. Each carries `daysLeft`: how many days the credits held in its subtree last at the mean daily consumption of its last 28 complete UTC days (as the `credit-usage` forecast counts them), `null` when nothing was consumed or when that is more than 365 days; sorted by `daysLeft`, the nulls come last in both orders. Permission: a role in the organization or above it; otherwise `404`.',
          params: organizationIdParamsSchema,
          querystring: subOrganizationListQuery,
          response: { 200: subOrganizationPageSchema, ...errors },
        },
      },
      async (request) =>
        listSubOrganizations(db, authOf(request), request.params.id, request.query, () =>
          replicaReads(request),
        ),
    );

    app.get(
      '/api/organization/:id/parent-organizations',
      {
        schema: {
          operationId: 'listParentOrganizations',
          tags,
          summary: 'List the parents of an organization',
          description:
            'The ancestors from the root down to the parent. Permission: a role in the organization or above it; otherwise `404`.',
          params: organizationIdParamsSchema,
          response: { 200: parentOrganizationsSchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        getParentOrganizations(await replicaReads(request), authOf(request), request.params.id),
    );

    app.get(
      '/api/organization/:id/credits',
      {
        schema: {
          operationId: 'getOrganizationCredits',
          tags,
          summary: 'Get the credits of an organization',
          description:
            'Its two pools, the credits its members hold, and the credits in the pools of every organization below. Permission: a role in the organization or above it; otherwise `404`.',
          params: organizationIdParamsSchema,
          response: { 200: organizationCreditsSchema, 404: errorBodySchema },
        },
      },
      async (request) =>
        getOrganizationCredits(await replicaReads(request), authOf(request), request.params.id),
    );

    app.post(
      '/api/organization/create',
      {
        schema: {
          operationId: 'createOrganization',
          tags,
          summary: 'Create an organization',
          description:
            'Creates a root organization, or a child of `parentOrganizationId`. With `adminEmail`, that person is invited as its owner (an existing account gets an invitation, never a membership). Permission: `create_root_org` (system admins) for a root, `create_child_org` on the parent for a child.',
          body: createOrganizationRequestSchema,
          response: { 201: organizationSchema, ...errors },
        },
      },
      async (request, reply) => {
        return writeRoute(
          db,
          request,
          reply,
          (tx) => createOrganization(tx, authOf(request), request.body, mail),
          {
            status: 201,
          },
        );
      },
    );

    app.post(
      '/api/organization/:id/update',
      {
        schema: {
          operationId: 'updateOrganization',
          tags,
          summary: 'Update an organization',
          description: 'Changes its name, type and phone number. Permission: `update_org` on it.',
          params: organizationIdParamsSchema,
          body: updateOrganizationRequestSchema,
          response: { 200: organizationSchema, ...errors },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) =>
          updateOrganization(tx, authOf(request), request.params.id, request.body),
        ),
    );

    app.post(
      '/api/organization/:id/security',
      {
        schema: {
          operationId: 'updateOrganizationSecurity',
          tags,
          summary: 'Require two-factor sign-in',
          description:
            'Requires two-factor sign-in (`requireMfa: true`) of the owners and admins of this organization and of every organization below it, or stops requiring it; audit-logged (`organization_security_updated`). Those it catches whose sessions did not prove two-factor are signed out (and get `403 mfa_setup_required` at their next sign-in when they have not set it up). Switching it on or off needs two-factor on for the caller’s own account (`422`) and a `code` of it (the authenticator app’s current code, each working once, or a recovery code): none is `400` on `code`, a wrong one `400 invalid_code`, too many wrong ones `429`. Permission: owner of the organization (held on it or above it) or system admin; an admin gets `403`.',
          params: organizationIdParamsSchema,
          body: updateOrganizationSecurityRequestSchema,
          response: {
            200: organizationSecuritySchema,
            ...errors,
            422: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx, _key, attempt) =>
            updateOrganizationSecurity(tx, authOf(request), request.params.id, request.body, {
              attempt,
              settings: signIn,
            }),
          { before: () => countOwnCode(db, authOf(request), request.body.code, request.ip) },
        ),
    );

    app.delete(
      '/api/organization/:id/delete',
      {
        schema: {
          operationId: 'deleteOrganization',
          tags,
          summary: 'Delete an organization',
          description:
            'Deletes an organization that has no sub-organizations; its credits and licence seats go to the parent (`409` while it has sub-organizations). Permission: `delete_org` on it.',
          params: organizationIdParamsSchema,
          response: { 200: successResponseSchema, ...errors, 409: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => deleteOrganization(tx, authOf(request), request.params.id)),
    );
  };
}
