import { z } from 'zod';
import { toCsv } from './csv';
import { MSG } from './messages';
import { LICENSE_TYPES } from './organizations';
import { pageOf } from './pagination';
import { ROLE_LABEL, ROLES } from './roles';
import {
  dateTimeOut,
  emailOut,
  emailSchema,
  idSchema,
  isEmail,
  isSingleLineText,
  singleLineText,
  text,
  uuidOut,
} from './text';

export { emailSchema, isEmail };

/**
 * `active`: a member. `pending`: invited and not in yet, its role and seat held: a new account that has not
 * set itself up, or an account that already existed and has not accepted (CONTRACT §3; its name and email
 * are what the inviter typed). The two read alike, so that nobody learns whether an address had an account.
 */
export const MEMBER_STATUSES = ['active', 'pending'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const organizationUserSchema = z
  .object({
    id: uuidOut(),
    name: z.string(),
    email: emailOut(),
    locale: z.string(),
    role: z.enum(ROLES),
    credits: z.number().int(),
    licence: z
      .object({
        id: uuidOut(),
        licenseType: z.enum(LICENSE_TYPES),
        expireAt: dateTimeOut(),
        entitled: z
          .boolean()
          .describe('False once the licence has expired: the seat stays, its use does not'),
      })
      .nullable(),
    status: z.enum(MEMBER_STATUSES),
    pendingEmail: emailOut()
      .nullable()
      .describe('The address an email change waits to be confirmed at; until then `email` stays'),
    organization: z
      .object({ id: uuidOut(), name: z.string() })
      .optional()
      .describe(
        'With `scope=subtree`: the organization of this membership (a person may be listed once per organization)',
      ),
  })
  .meta({ id: 'OrganizationUser', description: 'A member of an organization (or a pending invitation)' });
export const organizationUserPageSchema = pageOf(organizationUserSchema, 'OrganizationUserPage');
export type OrganizationUser = z.infer<typeof organizationUserSchema>;

export const ORGANIZATION_USER_SORT_KEYS = ['name', 'email', 'role', 'credits'] as const;

/**
 * Whose people a users list shows (CONTRACT §6): the organization's own (`direct`, the spec's list) or everyone
 * in it and below (`subtree`), each with their organization; `organizationId` narrows a subtree list to one
 * organization of it.
 */
export const USER_LIST_SCOPES = ['direct', 'subtree'] as const;
export type UserListScope = (typeof USER_LIST_SCOPES)[number];

export const userSearchItemSchema = z
  .object({
    id: uuidOut(),
    name: z.string(),
    email: emailOut(),
    organizations: z.array(z.object({ id: uuidOut(), name: z.string(), role: z.enum(ROLES) })),
  })
  .meta({ id: 'UserSearchItem' });
export const userSearchPageSchema = pageOf(userSearchItemSchema, 'UserSearchPage');
export type UserSearchItem = z.infer<typeof userSearchItemSchema>;

export const USER_SEARCH_SORT_KEYS = ['name', 'email'] as const;

/** Roles held in an organization (a membership); `system_admin` belongs to the account, never to one. */
export const MEMBER_ROLES = ['organization_owner', 'organization_admin', 'user'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Roles a CSV import may give (spec §5): others are skipped with a reason. */
export const IMPORT_ROLES = ['user', 'organization_admin'] as const;
export type ImportRole = (typeof IMPORT_ROLES)[number];

/**
 * The role a cell of an import file names, or null when it names none an import may give: the role's name
 * (`user`, `organization_admin`) or the label the panel shows for it ('Teacher', 'Admin'), trimmed and in any
 * case. The one mapping of import roles: the server's row checks (preview and import) use it.
 */
export function importRoleOf(cell: string): ImportRole | null {
  const wanted = cell.trim().toLowerCase();
  if (wanted === '') return null;
  return IMPORT_ROLES.find((role) => role === wanted || ROLE_LABEL[role].toLowerCase() === wanted) ?? null;
}

export const USER_LOCALES = ['en-us'] as const;

export const userNameSchema = singleLineText()
  .min(1, MSG.required)
  .max(200, 'Name must be at most 200 characters.');

export const createUserRequestSchema = z
  .object({
    email: emailSchema,
    name: userNameSchema,
    organizationId: idSchema,
    role: z.enum(MEMBER_ROLES),
    licenseId: idSchema
      .optional()
      .describe('The licence whose seat to take; without it, the first licence type with a free seat'),
  })
  .meta({ id: 'CreateUser' });
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;

export const updateUserRequestSchema = z
  .object({ name: userNameSchema, email: emailSchema, locale: z.enum(USER_LOCALES).default('en-us') })
  .meta({ id: 'UpdateUser' });
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

export const updateUserRoleRequestSchema = z
  .object({ role: z.enum(MEMBER_ROLES), organizationId: idSchema })
  .meta({ id: 'UpdateUserRole' });
export type UpdateUserRoleRequest = z.infer<typeof updateUserRoleRequestSchema>;

/** One role change as POST /api/user/{id}/update/role returns them: the user's, and the old owner's. */
export const roleChangeSchema = z
  .object({ userId: uuidOut(), organizationId: uuidOut(), roleName: z.enum(MEMBER_ROLES) })
  .meta({ id: 'RoleChange' });
export type RoleChange = z.infer<typeof roleChangeSchema>;

/** Users one call may act on at once (selection in the table, remove, licence change). */
export const MAX_USERS_PER_CALL = 1000;

const userIdsSchema = z
  .array(idSchema)
  .min(1, MSG.required)
  .max(MAX_USERS_PER_CALL, `At most ${MAX_USERS_PER_CALL} users at once.`);

export const updateUserLicensesRequestSchema = z
  .object({ userIds: userIdsSchema, licenseId: idSchema, organizationId: idSchema })
  .meta({ id: 'UpdateUserLicenses' });
export type UpdateUserLicensesRequest = z.infer<typeof updateUserLicensesRequestSchema>;

export const removeUsersRequestSchema = z
  .object({ organizationId: idSchema, userIds: userIdsSchema })
  .meta({ id: 'RemoveUsers' });
export type RemoveUsersRequest = z.infer<typeof removeUsersRequestSchema>;

export const removeUsersResponseSchema = z
  .object({
    removed: z.array(uuidOut()),
    creditsReturned: z
      .number()
      .int()
      .describe('Credits the removed users held, now in the organization’s shared pool'),
  })
  .meta({ id: 'UsersRemoved' });

/** Rows one import may carry. */
export const MAX_IMPORT_ROWS = 20_000;

/** A row as the file gave it: checked row by row on the server, so a bad row is skipped, never a 400. */
export const importRowSchema = z.object({
  email: text().max(1000),
  name: text().max(1000),
  role: text().max(100),
});
export type ImportRow = z.infer<typeof importRowSchema>;

export const bulkImportRequestSchema = z
  .object({
    organizationId: idSchema,
    users: z
      .array(importRowSchema)
      .min(1, 'The file has no users.')
      .max(MAX_IMPORT_ROWS, `At most ${MAX_IMPORT_ROWS} users in one import.`),
  })
  .meta({ id: 'BulkImport' });
export type BulkImportRequest = z.infer<typeof bulkImportRequestSchema>;

export const IMPORT_SKIP_REASONS = [
  'invalid_email',
  'missing_name',
  'invalid_name',
  'invalid_role',
  'duplicate_in_file',
  'already_member',
  'already_invited',
  'no_free_seat',
] as const;
export type ImportSkipReason = (typeof IMPORT_SKIP_REASONS)[number];

export const IMPORT_SKIP_MESSAGE: Record<ImportSkipReason, string> = {
  invalid_email: 'Invalid e-mail.',
  missing_name: 'The name is missing.',
  invalid_name: 'The name must not contain line breaks or control characters.',
  invalid_role: 'The role must be Teacher (user) or Admin (organization_admin).',
  duplicate_in_file: 'This email is already on an earlier row of the file.',
  already_member: 'Already a member of this organization.',
  already_invited: 'Already invited to this organization.',
  no_free_seat: 'No free licence seat was left for this user.',
};

export const skippedRowSchema = z
  .object({
    row: z
      .number()
      .int()
      .describe(
        'The row as a spreadsheet numbers it: the header is row 1, so `users[0]` is row 2 (`users[i]` is row i + 2)',
      ),
    email: z.string(),
    reason: z.enum(IMPORT_SKIP_REASONS),
    message: z.string(),
  })
  .meta({ id: 'SkippedRow' });
export type SkippedRow = z.infer<typeof skippedRowSchema>;

/** Seats of the organization's licences: null `free` when it has no licence (nothing is limited). */
export const importSeatsSchema = z
  .object({ free: z.number().int().nullable(), needed: z.number().int() })
  .meta({ id: 'ImportSeats' });

export const bulkImportResponseSchema = z
  .object({
    added: z.array(organizationUserSchema),
    skipped: z.array(skippedRowSchema),
    seats: importSeatsSchema,
  })
  .meta({ id: 'BulkImportResult' });
export type BulkImportResponse = z.infer<typeof bulkImportResponseSchema>;

/** POST /api/user/bulk/preview: what the import would do, computed by the same rules, nothing written. */
export const bulkImportPreviewSchema = z
  .object({
    toAdd: z.array(
      z.object({
        row: z.number().int().describe('The row as a spreadsheet numbers it: `users[i]` is row i + 2'),
        email: emailOut(),
        name: z.string(),
        role: z.enum(IMPORT_ROLES),
        licenseType: z.enum(LICENSE_TYPES).nullable(),
      }),
    ),
    skipped: z.array(skippedRowSchema),
    seats: importSeatsSchema,
  })
  .meta({ id: 'BulkImportPreview' });
export type BulkImportPreview = z.infer<typeof bulkImportPreviewSchema>;

/** The spreadsheet row of `users[index]`: the header is row 1, the first data row is row 2. */
export const importRowNumber = (index: number) => index + 2;

/** A skipped row with the sentence of its reason. */
export function skippedRow(row: number, email: string, reason: ImportSkipReason): SkippedRow {
  return { row, email, reason, message: IMPORT_SKIP_MESSAGE[reason] };
}

export interface CheckedImportRow {
  row: number;
  email: string;
  name: string;
  role: ImportRole;
}

/**
 * The rules an import applies to each row without the database: a valid email, a name, an importable
 * role, and the first row of an email wins. What the database decides (members, seats) comes after.
 */
export function checkImportRows(rows: readonly ImportRow[]): {
  valid: CheckedImportRow[];
  skipped: SkippedRow[];
} {
  const valid: CheckedImportRow[] = [];
  const skipped: SkippedRow[] = [];
  const seen = new Set<string>();
  rows.forEach((input, index) => {
    const row = importRowNumber(index);
    const email = input.email.trim();
    const role = importRoleOf(input.role);
    const reason = rejectImportRow(input, email, role, seen);
    if (reason || role === null) {
      skipped.push(skippedRow(row, email, reason ?? 'invalid_role'));
      return;
    }
    valid.push({ row, email, name: input.name.trim(), role });
  });
  return { valid, skipped };
}

function rejectImportRow(
  input: ImportRow,
  email: string,
  role: ImportRole | null,
  seen: Set<string>,
): ImportSkipReason | null {
  if (!isEmail(email)) return 'invalid_email';
  const key = email.toLowerCase();
  if (seen.has(key)) return 'duplicate_in_file';
  seen.add(key);
  const name = input.name.trim();
  if (!name || name.length > 200) return 'missing_name';
  if (!isSingleLineText(name)) return 'invalid_name';
  if (role === null) return 'invalid_role';
  return null;
}

/** Column names of the import file (spec §3: CSV user rows). */
export const IMPORT_CSV_COLUMNS = ['email', 'user_name', 'user_role'] as const;

/** File name of the import template the import dialog offers. */
export const IMPORT_TEMPLATE_FILE_NAME = 'users-import-template.csv';

/**
 * The import template: the header row the import reads and one example row, written by the one CSV writer.
 * The example's role is a label ('Teacher'), which the import takes as well as the role's name.
 */
export function importTemplateCsv(): string {
  return toCsv(IMPORT_CSV_COLUMNS, [['jane.doe@example.org', 'Jane Doe', ROLE_LABEL.user]]);
}

/** An account as POST /api/user/{id}/update answers it. */
export const userAccountSchema = z
  .object({
    id: uuidOut(),
    name: z.string(),
    email: emailOut(),
    locale: z.string(),
    pendingEmail: emailOut()
      .nullable()
      .describe('A new email waiting for its code: the account keeps `email` until the code is entered'),
  })
  .meta({ id: 'UserAccount' });
export type UserAccount = z.infer<typeof userAccountSchema>;

/** What the caller may change of an account (GET /api/user/{id}/edit-rights), with the reason for the rest. */
export const userEditRightsSchema = z
  .object({
    canChangeName: z.boolean(),
    canChangeEmail: z.boolean(),
    reason: z
      .string()
      .nullable()
      .describe('Why a part may not be changed (the text the update would answer), or null when both may'),
  })
  .meta({ id: 'UserEditRights' });
export type UserEditRights = z.infer<typeof userEditRightsSchema>;
