import { z } from 'zod';
import { personInLogSchema } from './log-people';
import { DEFAULT_PAGE_SIZE, intParam, MAX_PAGE_SIZE } from './pagination';
import { dateTimeOut, idSchema, text, uuidOut } from './text';

/** What an audit log entry records (CONTRACT §10), in the contract's order. */
export const AUDIT_ACTIONS = [
  'organization_created',
  'organization_updated',
  'organization_deleted',
  'member_added',
  'member_updated',
  'member_removed',
  'member_role_changed',
  'member_licence_changed',
  'licence_created',
  'licence_updated',
  'licence_deleted',
  'licence_seats_moved',
  'invoice_created',
  'invoice_fulfilled',
  'invoice_voided',
  'credits_moved',
  'integration_key_created',
  'integration_key_revoked',
  'organization_security_updated',
  'member_two_factor_reset',
  'request_created',
  'request_approved',
  'request_declined',
  'request_cancelled',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABEL: Record<AuditAction, string> = {
  organization_created: 'Organization created',
  organization_updated: 'Organization changed',
  organization_deleted: 'Organization deleted',
  member_added: 'Member added',
  member_updated: 'Member changed',
  member_removed: 'Member removed',
  member_role_changed: 'Role changed',
  member_licence_changed: 'Member’s licence changed',
  licence_created: 'Licence created',
  licence_updated: 'Licence changed',
  licence_deleted: 'Licence deleted',
  licence_seats_moved: 'Seats moved',
  invoice_created: 'Invoice created',
  invoice_fulfilled: 'Invoice fulfilled',
  invoice_voided: 'Invoice voided',
  credits_moved: 'Credits moved',
  integration_key_created: 'Integration key created',
  integration_key_revoked: 'Integration key revoked',
  organization_security_updated: 'Sign-in requirements changed',
  member_two_factor_reset: 'Two-factor sign-in reset',
  request_created: 'Request made',
  request_approved: 'Request approved',
  request_declined: 'Request declined',
  request_cancelled: 'Request cancelled',
};

/** What an entry's `target` names. */
export const AUDIT_TARGET_TYPES = [
  'organization',
  'member',
  'licence',
  'invoice',
  'credit_transaction',
  'integration_key',
  'request',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const DATE_PARAM_MESSAGE = 'Enter a date as YYYY-MM-DD.';
export const DATE_RANGE_MESSAGE = 'The start date must not be after the end date.';

/** A calendar date (UTC) in a query: `YYYY-MM-DD`, a real day. */
export const dateParam = () =>
  text(DATE_PARAM_MESSAGE)
    .regex(/^\d{4}-\d{2}-\d{2}$/, DATE_PARAM_MESSAGE)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }, DATE_PARAM_MESSAGE)
    .meta({ format: 'date' });

/** `from`/`to`, both included, `from` not after `to`. */
export const dateRangeShape = { from: dateParam().optional(), to: dateParam().optional() };
export const refineDateRange = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || q.from <= q.to;

const actionFilter = z
  .union([z.enum(AUDIT_ACTIONS), z.array(z.enum(AUDIT_ACTIONS)).max(AUDIT_ACTIONS.length)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

/** The filters of the audit log and of its export (CONTRACT §10). `action` may be repeated. */
export const auditLogFilterShape = {
  actorId: idSchema.optional(),
  action: actionFilter,
  organizationId: idSchema.optional(),
  ...dateRangeShape,
};

export const auditLogQuerySchema = z
  .object({
    limit: intParam(1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    pageToken: text().max(200, 'This page token is not valid.').optional(),
    ...auditLogFilterShape,
  })
  .refine(refineDateRange, { message: DATE_RANGE_MESSAGE, path: ['from'] });
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export const auditLogExportQuerySchema = z
  .object(auditLogFilterShape)
  .refine(refineDateRange, { message: DATE_RANGE_MESSAGE, path: ['from'] });
export type AuditLogExportQuery = z.infer<typeof auditLogExportQuerySchema>;

export const auditEntrySchema = z
  .object({
    id: uuidOut(),
    date: dateTimeOut(),
    action: z.enum(AUDIT_ACTIONS),
    organization: z.object({ id: uuidOut(), name: z.string() }),
    /**
     * Who made the change; null when no person did (seed data, a deleted account). Someone who is not a member
     * of the organization's subtree (nor above it) reads as someone outside this organization, without id or
     * email (CONTRACT §5).
     */
    actor: personInLogSchema.nullable(),
    target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.string().nullable(), label: z.string() }),
    /** What changed, before and after (only the fields that changed); null for a creation or a removal. */
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditLogEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditLogPageSchema = z
  .object({
    data: z.array(auditEntrySchema),
    pagination: z.object({
      limit: z.number().int(),
      hasNext: z.boolean(),
      nextPageToken: z.string().nullable(),
    }),
  })
  .meta({ id: 'AuditLogPage' });
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;

/** The CSV export's columns, in order (the file's header row). */
export const AUDIT_CSV_HEADER = [
  'Date (UTC)',
  'Action',
  'Organization',
  'Organization ID',
  'Actor',
  'Actor email',
  'Target type',
  'Target',
  'Target ID',
  'Before',
  'After',
] as const;
