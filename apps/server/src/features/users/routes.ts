import { successResponseSchema } from '@allot/domain/auth';
import { errorBodySchema } from '@allot/domain/errors';
import { resetUserMfaRequestSchema } from '@allot/domain/mfa';
import { organizationIdParamsSchema } from '@allot/domain/organizations';
import { paginationQuerySchema } from '@allot/domain/pagination';
import { idSchema } from '@allot/domain/text';
import {
  bulkImportPreviewSchema,
  bulkImportRequestSchema,
  bulkImportResponseSchema,
  createUserRequestSchema,
  ORGANIZATION_USER_SORT_KEYS,
  organizationUserPageSchema,
  organizationUserSchema,
  removeUsersRequestSchema,
  removeUsersResponseSchema,
  roleChangeSchema,
  USER_LIST_SCOPES,
  USER_SEARCH_SORT_KEYS,
  updateUserLicensesRequestSchema,
  updateUserRequestSchema,
  updateUserRoleRequestSchema,
  userAccountSchema,
  userEditRightsSchema,
  userSearchPageSchema,
} from '@allot/domain/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { authOf } from '../../http/authenticate';
import { replicaReads } from '../../http/replica-reads';
import { writeRoute } from '../../http/write-route';
import { countOwnCode, type SignInSettings } from '../auth';
import type { MailSettings } from '../mail';
import { asImportFailure, countImport, createUser, importUsers, previewImport } from './add-users';
import { updateUserRole } from './change-roles';
import { listOrganizationUsers, searchUsers } from './list-users';
import { removeUsers } from './remove-users';
import { countMemberResend, resendMemberInvitation } from './resend-invitations';
import { resetUserMfa } from './reset-two-factor';
import { getUserEditRights, updateUser, updateUserLicenses } from './update-users';

const tags = ['users'];
const errors = { 403: errorBodySchema, 404: errorBodySchema };
const userIdParamsSchema = z.object({ id: idSchema });
const memberParamsSchema = z.object({ id: idSchema, userId: idSchema });
/** An import of 20,000 rows is a few MB of JSON. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

export function userRoutes(db: Db, mail: MailSettings, signIn: SignInSettings): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/user/search',
      {
        schema: {
          operationId: 'searchUsers',
          tags,
          summary: 'Search people in the caller’s subtrees',
          description:
            'People who belong to an organization the caller can see, by name or email, with the organizations they belong to there. Permission: any signed-in panel user.',
          querystring: paginationQuerySchema(USER_SEARCH_SORT_KEYS),
          response: { 200: userSearchPageSchema },
        },
      },
      async (request) => searchUsers(await replicaReads(request), authOf(request), request.query),
    );

    app.get(
      '/api/organization/:id/users',
      {
        schema: {
          operationId: 'listOrganizationUsers',
          tags,
          summary: 'List the members of an organization',
          description:
            'Members and pending invitations, with role, credits and licence. `scope=subtree` lists everyone in the organization and below, each with `organization: {id, name}` (a person in two organizations is listed twice), and `organizationId` narrows it to one organization of the subtree; the default `scope=direct` is the organization’s own people. Permission: `manage_users` on the organization.',
          params: organizationIdParamsSchema,
          querystring: paginationQuerySchema(ORGANIZATION_USER_SORT_KEYS).extend({
            withCredits: z.enum(['true', 'false']).optional(),
            scope: z.enum(USER_LIST_SCOPES).optional().default('direct'),
            organizationId: z.string().max(100).optional(),
          }),
          response: { 200: organizationUserPageSchema, ...errors },
        },
      },
      async (request) =>
        listOrganizationUsers(await replicaReads(request), authOf(request), request.params.id, request.query),
    );

    app.post(
      '/api/user/create',
      {
        schema: {
          operationId: 'createUser',
          tags,
          summary: 'Add a person to an organization',
          description:
            'Invites the person by mail with a role and a licence seat. A new address gets an account to set up; an existing account gets an invitation to accept, never a membership (`402` when no seat is free, `409` when the person is already a member, `429` past the organization’s invitations a day). Permission: `manage_users` on the organization; roles up to the caller’s own.',
          body: createUserRequestSchema,
          response: {
            201: organizationUserSchema,
            402: errorBodySchema,
            409: errorBodySchema,
            429: errorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => createUser(tx, authOf(request), request.body, mail), {
          status: 201,
        }),
    );

    app.get(
      '/api/user/:id/edit-rights',
      {
        schema: {
          operationId: 'getUserEditRights',
          tags,
          summary: 'What the caller may change of an account',
          description:
            'Whether `POST /api/user/{id}/update` would accept a new name and a new email from the caller, and the text it would refuse with otherwise (the web app asks before it opens the edit dialog). An invited person keeps the address the invitation went to. Permission: the account itself or a system admin; others `manage_users` above the account in every organization it belongs to (for the email, a strictly higher role in every one), as for the update.',
          params: userIdParamsSchema,
          response: { 200: userEditRightsSchema, ...errors },
        },
      },
      async (request) => getUserEditRights(db, authOf(request), request.params.id),
    );

    app.post(
      '/api/user/:id/mfa/reset',
      {
        schema: {
          operationId: 'resetUserTwoFactor',
          tags,
          summary: 'Turn off someone’s two-factor sign-in',
          description:
            'Removes the account’s authenticator and recovery codes (a lost phone) and ends its sessions; it signs in with its password again and, where two-factor is required of it, sets it up anew. Audit-logged (`member_two_factor_reset`) in every organization the account is a member of. Needs two-factor on for the caller’s own account (`422`) and a `code` of it (the authenticator app’s current code, each working once, or a recovery code): none is `400` on `code`, a wrong one `400 invalid_code`, too many wrong ones `429`. Permission: system admins; others who see the account get `403`.',
          params: userIdParamsSchema,
          body: resetUserMfaRequestSchema.nullish(),
          response: { 200: successResponseSchema, ...errors, 422: errorBodySchema, 429: errorBodySchema },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx, _key, attempt) =>
            resetUserMfa(tx, authOf(request), request.params.id, request.body, { attempt, settings: signIn }),
          { before: () => countOwnCode(db, authOf(request), request.body?.code, request.ip) },
        ),
    );

    app.post(
      '/api/user/:id/update',
      {
        schema: {
          operationId: 'updateUser',
          tags,
          summary: 'Update an account',
          description:
            'Changes the name, email or locale. A new email is only used once confirmed with the code mailed to it (`pendingEmail`). Permission: the account itself, or `manage_users` above the account in every organization it belongs to.',
          params: userIdParamsSchema,
          body: updateUserRequestSchema,
          response: { 200: userAccountSchema, 409: errorBodySchema, 422: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) =>
          updateUser(tx, authOf(request), request.params.id, request.body, mail),
        ),
    );

    app.post(
      '/api/user/:id/update/role',
      {
        schema: {
          operationId: 'updateUserRole',
          tags,
          summary: 'Change a member’s role',
          description:
            'Making someone the owner turns the current owner into an admin; the answer lists every change. Permission: `assign_roles` on the organization, roles up to the caller’s own (only an owner makes an owner).',
          params: userIdParamsSchema,
          body: updateUserRoleRequestSchema,
          response: { 200: z.array(roleChangeSchema), 422: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) =>
          updateUserRole(tx, authOf(request), request.params.id, request.body),
        ),
    );

    app.post(
      '/api/user/update/licenses',
      {
        schema: {
          operationId: 'updateUserLicenses',
          tags,
          summary: 'Move members onto a licence',
          description:
            'Gives each member a seat of one licence of the organization (`422` when it has too few free seats). Permission: `manage_users` on the organization.',
          body: updateUserLicensesRequestSchema,
          response: { 200: z.array(organizationUserSchema), 422: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => updateUserLicenses(tx, authOf(request), request.body)),
    );

    app.post(
      '/api/user/remove',
      {
        schema: {
          operationId: 'removeUsers',
          tags,
          summary: 'Remove members from an organization',
          description:
            'Ends the memberships: their seats are freed and their credits go back to the shared pool. The owner cannot be removed (`422`). Permission: `manage_users` on the organization.',
          body: removeUsersRequestSchema,
          response: { 200: removeUsersResponseSchema, 422: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => removeUsers(tx, authOf(request), request.body)),
    );

    app.post(
      '/api/organization/:id/users/:userId/invitation/resend',
      {
        schema: {
          operationId: 'resendMemberInvitation',
          tags,
          summary: 'Send a pending person’s invitation again',
          description:
            'Mails a person whose invitation is pending (`status: pending`) again, with a new code; the code of the earlier mail stops working. A new account that has not set itself up gets the invitation to set it up; an account that existed gets the invitation to join. `404` when the person is not pending in the organization; `429` past a few resends in fifteen minutes (per session and per person) or the organization’s invitations a day. Permission: `manage_users` on the organization; people up to the caller’s own role.',
          params: memberParamsSchema,
          response: { 200: successResponseSchema, 429: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        writeRoute(
          db,
          request,
          reply,
          (tx, _key, access) =>
            resendMemberInvitation(
              tx,
              authOf(request),
              access,
              request.params.id,
              request.params.userId,
              mail,
            ),
          { before: () => countMemberResend(db, authOf(request), request.params.id) },
        ),
    );

    app.post(
      '/api/user/bulk/preview',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          operationId: 'previewUserImport',
          tags,
          summary: 'Preview an import of people',
          description:
            'What an import would add and skip, and the seats it would take; nothing is written (`429` past a few previews and imports in ten minutes). Permission: `manage_users` on the organization.',
          body: bulkImportRequestSchema,
          response: { 200: bulkImportPreviewSchema, 429: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        writeRoute(db, request, reply, (tx) => previewImport(tx, authOf(request), request.body), {
          before: () => countImport(db, authOf(request), request.body),
        }),
    );

    app.post(
      '/api/user/bulk',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          operationId: 'importUsers',
          tags,
          summary: 'Import people',
          description:
            'Adds every acceptable row in one transaction; skipped rows come with their reason. When the seats ran out part-way the rows added stay added and the answer is `402` with the lists in `details`; `429` past a few imports in ten minutes or the invitations a day. Permission: `manage_users` on the organization.',
          body: bulkImportRequestSchema,
          response: {
            200: bulkImportResponseSchema,
            402: errorBodySchema,
            429: errorBodySchema,
            500: errorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) =>
        asImportFailure(() =>
          writeRoute(db, request, reply, (tx) => importUsers(tx, authOf(request), request.body, mail), {
            before: () => countImport(db, authOf(request), request.body),
          }),
        ),
    );
  };
}
