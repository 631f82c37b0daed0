import { z } from 'zod';
import { CREDIT_POOLS, type CreditPool, creditAmountSchema } from './credits';
import { personInLogSchema } from './log-people';
import { MSG } from './messages';
import { LICENSE_TYPE_LABEL, LICENSE_TYPES, type LicenseType } from './organizations';
import { intParam, MAX_PAGE_SIZE, pageOf, type paginationSchema } from './pagination';
import type { Permission } from './roles';
import { dateTimeOut, emailOut, freeText, uuidOut } from './text';

/**
 * Requests up the tree (CONTRACT §11): an organization's admins ask the organization directly above for credits
 * or seats; the admins there approve (the allocation happens through the ledger in the same transaction) or
 * decline with a reason.
 */

export const REQUEST_KINDS = ['credits', 'seats'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
export const REQUEST_KIND_LABEL: Record<RequestKind, string> = { credits: 'Credits', seats: 'Seats' };

export const REQUEST_STATUSES = ['open', 'approved', 'declined', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const REQUEST_STATUS_LABEL: Record<RequestStatus, string> = {
  open: 'Open',
  approved: 'Approved',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

export const REQUEST_DIRECTIONS = ['incoming', 'outgoing'] as const;
export type RequestDirection = (typeof REQUEST_DIRECTIONS)[number];

/** CONTRACT §11: at most this many requests opened a day (24 hours) by one organization; more is `429`. */
export const REQUESTS_PER_DAY = 10;
export const REQUEST_NOTE_MAX = 500;
/** Seats one request may ask for (an invoice's own bound). */
export const MAX_REQUEST_SEATS = 100_000;

/**
 * What asking and deciding a request of each kind needs, on the asking organization and on the one above: the
 * permission of the allocation it asks for (credits: `assign/organizations`; seats: `license/assign/organizations`).
 */
export const REQUEST_PERMISSION: Record<RequestKind, Permission> = {
  credits: 'transfer_org_credits',
  seats: 'manage_org_license',
};

export const REQUEST_MSG = {
  tooMany: `An organization may open at most ${REQUESTS_PER_DAY} requests a day. Try again tomorrow.`,
  notOpen: 'This request is no longer open.',
  noParent: 'This organization has no organization above it to ask.',
  licenseTypeRequired: 'Choose the licence type.',
  amountAboveAsked: (asked: number) => `Approve at most the ${asked.toLocaleString('en-US')} asked for.`,
  reasonRequired: 'Say why the request is declined.',
} as const;

const noteSchema = freeText()
  .max(REQUEST_NOTE_MAX, `At most ${REQUEST_NOTE_MAX} characters.`)
  .describe('Why, in the asker’s words');

/** POST /api/organization/{id}/requests */
export const createRequestSchema = z
  .object({
    kind: z.enum(REQUEST_KINDS, { error: 'Choose credits or seats.' }),
    amount: creditAmountSchema.describe('Credits, or seats (at most 100,000)'),
    pool: z
      .enum(CREDIT_POOLS, { error: 'Choose the shared or the protected pool.' })
      .optional()
      .describe('credits: the pool they should land in; shared when absent'),
    licenseType: z.enum(LICENSE_TYPES).optional().describe('seats: required'),
    note: noteSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.kind === 'seats') {
      if (input.licenseType === undefined) {
        ctx.addIssue({ code: 'custom', path: ['licenseType'], message: REQUEST_MSG.licenseTypeRequired });
      }
      if (input.amount > MAX_REQUEST_SEATS) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: MSG.max(MAX_REQUEST_SEATS) });
      }
    }
  })
  .meta({ id: 'CreateRequest' });
export type CreateRequest = z.infer<typeof createRequestSchema>;

/** POST /api/request/{id}/approve: `amount` at most the asked amount; all of it when absent. */
export const approveRequestSchema = z
  .object({ amount: creditAmountSchema.optional() })
  .meta({ id: 'ApproveRequest' });
export type ApproveRequest = z.infer<typeof approveRequestSchema>;

/** POST /api/request/{id}/decline */
export const declineRequestSchema = z
  .object({
    reason: freeText(REQUEST_MSG.reasonRequired)
      .min(1, REQUEST_MSG.reasonRequired)
      .max(REQUEST_NOTE_MAX, `At most ${REQUEST_NOTE_MAX} characters.`),
  })
  .meta({ id: 'DeclineRequest' });
export type DeclineRequest = z.infer<typeof declineRequestSchema>;

export const requestSchema = z
  .object({
    id: uuidOut(),
    status: z.enum(REQUEST_STATUSES),
    kind: z.enum(REQUEST_KINDS),
    amount: z.number().int().describe('What was asked: credits or seats'),
    pool: z.enum(CREDIT_POOLS).nullable().describe('credits: the pool asked for; null for seats'),
    licenseType: z.enum(LICENSE_TYPES).nullable().describe('seats: the licence type; null for credits'),
    note: z.string().nullable(),
    organization: z.object({ id: uuidOut(), name: z.string() }).describe('The asking organization'),
    parentOrganization: z
      .object({ id: uuidOut(), name: z.string() })
      .describe('The organization asked: the one directly above when the request was made'),
    createdAt: dateTimeOut(),
    createdBy: personInLogSchema.nullable(),
    decidedAt: dateTimeOut().nullable().describe('When it was approved, declined or cancelled'),
    decidedBy: personInLogSchema.nullable(),
    approvedAmount: z.number().int().nullable().describe('approved: what was given'),
    reason: z.string().nullable().describe('declined: why'),
  })
  .meta({ id: 'Request' });
export type UpTreeRequest = z.infer<typeof requestSchema>;

/** GET /api/organization/{id}/requests: newest first. */
export const requestListQuerySchema = z.object({
  direction: z.enum(REQUEST_DIRECTIONS).optional().default('incoming'),
  status: z.enum(REQUEST_STATUSES).optional(),
  page: intParam(1, 1_000_000, 1),
  limit: intParam(1, MAX_PAGE_SIZE, 20),
});
export type RequestListQuery = z.infer<typeof requestListQuerySchema>;

export const requestPageSchema = pageOf(requestSchema, 'RequestPage');
export type RequestPage = { data: UpTreeRequest[]; pagination: z.infer<typeof paginationSchema> };

/** What a request asks, in words: "500 credits (shared pool)", "20 TLE Teacher seats" (audit labels, mails, web). */
export function describeRequest(
  r: { kind: RequestKind; pool: CreditPool | null; licenseType: LicenseType | null },
  amount: number,
): string {
  const n = amount.toLocaleString('en-US');
  if (r.kind === 'credits') return `${n} ${amount === 1 ? 'credit' : 'credits'} (${r.pool ?? 'shared'} pool)`;
  const type = r.licenseType ? `${LICENSE_TYPE_LABEL[r.licenseType]} ` : '';
  return `${n} ${type}${amount === 1 ? 'seat' : 'seats'}`;
}

/**
 * GET /api/organization/{id}/above (an addition to CONTRACT §11, decision 017): what the asking side needs to
 * know of the organization it would ask, for those who manage `{id}`.
 */
export const organizationAboveSchema = z
  .object({
    parent: z
      .object({ id: uuidOut(), name: z.string() })
      .nullable()
      .describe('The organization directly above; null for a top-level organization (nobody to ask)'),
    managers: z
      .array(
        z.object({
          name: z.string(),
          email: emailOut(),
          role: z.enum(['organization_owner', 'organization_admin']),
        }),
      )
      .describe(
        'Who decides: the owners and admins of the parent (of the nearest organization above it that has some, when it has none itself)',
      ),
    freeSeats: z
      .object(
        Object.fromEntries(LICENSE_TYPES.map((type) => [type, z.boolean()])) as Record<
          LicenseType,
          z.ZodBoolean
        >,
      )
      .describe('Per licence type: whether the parent holds at least one free seat of it'),
    openRequests: z
      .number()
      .int()
      .describe(
        'Open requests asked of `{id}` itself (by the organizations directly below it), for a caller who decides them there; 0 for others',
      ),
  })
  .meta({ id: 'OrganizationAbove' });
export type OrganizationAbove = z.infer<typeof organizationAboveSchema>;
