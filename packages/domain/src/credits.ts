import { z } from 'zod';
import { DATE_RANGE_MESSAGE, dateRangeShape, refineDateRange } from './audit';
import { personInLogSchema } from './log-people';
import { MSG } from './messages';
import { DEFAULT_PAGE_SIZE, intParam, MAX_PAGE_SIZE } from './pagination';
import { dateTimeOut, freeText, idSchema, text, uuidOut } from './text';

/** What a credit-journal transaction did (CONTRACT §5); the credit log shows them in words. */
export const CREDIT_ACTIONS = [
  'pool_transfer',
  'assign_organizations',
  'reclaim_organizations',
  'transfer_organizations',
  'assign_users',
  'reclaim_users',
  'transfer_users',
  'system_allocation',
  'purchase',
  'consumption',
  'organization_deleted',
] as const;
export type CreditAction = (typeof CREDIT_ACTIONS)[number];

export const CREDIT_ACTION_LABEL: Record<CreditAction, string> = {
  pool_transfer: 'Moved between pools',
  assign_organizations: 'Allocated to sub-organizations',
  reclaim_organizations: 'Reclaimed from sub-organizations',
  transfer_organizations: 'Transferred between organizations',
  assign_users: 'Allocated to users',
  reclaim_users: 'Reclaimed from users',
  transfer_users: 'Transferred between users',
  system_allocation: 'Allocated by the system',
  purchase: 'Purchased',
  consumption: 'Used',
  organization_deleted: 'Organization deleted',
};

export const CREDIT_POOLS = ['shared', 'protected'] as const;
export type CreditPool = (typeof CREDIT_POOLS)[number];
export const CREDIT_POOL_LABEL: Record<CreditPool, string> = {
  shared: 'Shared pool',
  protected: 'Protected pool',
};

/** What each pool is for, in one line, where a pool is chosen (issue 33: the two pools were easy to mix up). */
export const CREDIT_POOL_HINT: Record<CreditPool, string> = {
  shared: 'Its teachers draw on it',
  protected: 'Kept back: only admins move it',
};

/** Which pool(s) of each source organization a reclaim drains (CONTRACT §5). */
export const RECLAIM_STRATEGIES = ['shared', 'protected', 'shared_first', 'protected_first'] as const;
export type ReclaimStrategy = (typeof RECLAIM_STRATEGIES)[number];
export const RECLAIM_STRATEGY_LABEL: Record<ReclaimStrategy, string> = {
  shared: 'Shared pool only',
  protected: 'Protected pool only',
  shared_first: 'Shared pool first, then protected',
  protected_first: 'Protected pool first, then shared',
};

/** The pools a strategy drains, in the order it drains them. */
export function poolsOf(strategy: ReclaimStrategy): CreditPool[] {
  switch (strategy) {
    case 'shared':
      return ['shared'];
    case 'protected':
      return ['protected'];
    case 'shared_first':
      return ['shared', 'protected'];
    case 'protected_first':
      return ['protected', 'shared'];
  }
}

/** What a reclaim with `strategy` can take from an organization holding `pools`: the pools it drains, summed. */
export function reclaimableUnder(strategy: ReclaimStrategy, pools: Record<CreditPool, number>): number {
  return poolsOf(strategy).reduce((sum, pool) => sum + pools[pool], 0);
}

/**
 * The most one call moves per target. With at most `MAX_CREDIT_TARGETS` targets, a call's total stays far
 * inside both JavaScript's safe integers and PostgreSQL's bigint.
 */
export const MAX_CREDIT_AMOUNT = 1_000_000_000;
export const MAX_CREDIT_TARGETS = 1000;

/**
 * A credit amount (CONTRACT §5): a whole number above zero. Zero and negatives get the spec's "greater than
 * zero" text, fractions and other numbers "Invalid number", anything that is no number "only numbers".
 */
export const creditAmountSchema = z
  .unknown()
  .transform((value, ctx) => {
    if (value === undefined || value === null || value === '') {
      ctx.addIssue({ code: 'custom', message: MSG.required });
      return z.NEVER;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      ctx.addIssue({ code: 'custom', message: MSG.onlyNumbers });
      return z.NEVER;
    }
    if (value <= 0) {
      ctx.addIssue({ code: 'custom', message: MSG.creditsGreaterThanZero });
      return z.NEVER;
    }
    if (!Number.isInteger(value)) {
      ctx.addIssue({ code: 'custom', message: MSG.invalidNumber });
      return z.NEVER;
    }
    if (value > MAX_CREDIT_AMOUNT) {
      ctx.addIssue({ code: 'custom', message: MSG.max(MAX_CREDIT_AMOUNT) });
      return z.NEVER;
    }
    return value;
  })
  .pipe(z.number().int())
  .meta({ type: 'integer', minimum: 1, maximum: MAX_CREDIT_AMOUNT });

const poolSchema = z.enum(CREDIT_POOLS, { error: 'Choose the shared or the protected pool.' });
const strategySchema = z.enum(RECLAIM_STRATEGIES, {
  error: 'Choose shared, protected, shared_first or protected_first.',
});
const idListSchema = (what: string) =>
  z
    .array(idSchema, { error: MSG.required })
    .min(1, MSG.required)
    .max(MAX_CREDIT_TARGETS, `At most ${MAX_CREDIT_TARGETS} ${what} at once.`)
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
      message: `Each of the ${what} may appear only once.`,
    });

/** The spec's '{value} must be different from {otherValue}.' with the names a person reads. */
export const DIFFERENT = {
  pool: MSG.mustDiffer('The target pool', 'the source pool'),
  organization: MSG.mustDiffer('The target organization', 'the source organization'),
  user: MSG.mustDiffer('The target user', 'the source user'),
} as const;

export const transferPoolsRequestSchema = z
  .object({ amount: creditAmountSchema, organizationId: idSchema, fromPool: poolSchema, toPool: poolSchema })
  .refine((b) => b.fromPool !== b.toPool, { path: ['toPool'], message: DIFFERENT.pool })
  .meta({ id: 'TransferPools' });
export type TransferPoolsRequest = z.infer<typeof transferPoolsRequestSchema>;

export const assignOrganizationsRequestSchema = z
  .object({
    amount: creditAmountSchema,
    sourceOrganizationId: idSchema,
    fromOrganizationPoolType: poolSchema,
    targetOrganizationIds: idListSchema('organizations'),
    toOrganizationPoolType: poolSchema,
  })
  .meta({ id: 'AssignCreditsToOrganizations' });
export type AssignOrganizationsRequest = z.infer<typeof assignOrganizationsRequestSchema>;

export const reclaimOrganizationsRequestSchema = z
  .object({
    amount: creditAmountSchema,
    sourceOrganizationIds: idListSchema('organizations'),
    reclaimFromStrategy: strategySchema,
    targetOrganizationId: idSchema,
    toOrganizationPoolType: poolSchema,
  })
  .meta({ id: 'ReclaimCreditsFromOrganizations' });
export type ReclaimOrganizationsRequest = z.infer<typeof reclaimOrganizationsRequestSchema>;

export const transferOrganizationsRequestSchema = z
  .object({
    amount: creditAmountSchema,
    sourceOrganizationId: idSchema,
    fromOrganizationPoolType: poolSchema,
    targetOrganizationId: idSchema,
    toOrganizationPoolType: poolSchema,
  })
  .refine((b) => b.sourceOrganizationId.toLowerCase() !== b.targetOrganizationId.toLowerCase(), {
    path: ['targetOrganizationId'],
    message: DIFFERENT.organization,
  })
  .meta({ id: 'TransferCreditsBetweenOrganizations' });
export type TransferOrganizationsRequest = z.infer<typeof transferOrganizationsRequestSchema>;

export const assignUsersRequestSchema = z
  .object({
    amount: creditAmountSchema,
    userIds: idListSchema('users'),
    organizationId: idSchema,
    fromOrganizationPoolType: poolSchema,
  })
  .meta({ id: 'AssignCreditsToUsers' });
export type AssignUsersRequest = z.infer<typeof assignUsersRequestSchema>;

export const reclaimUsersRequestSchema = z
  .object({
    amount: creditAmountSchema,
    userIds: idListSchema('users'),
    organizationId: idSchema,
    toOrganizationPoolType: poolSchema,
  })
  .meta({ id: 'ReclaimCreditsFromUsers' });
export type ReclaimUsersRequest = z.infer<typeof reclaimUsersRequestSchema>;

export const transferUsersRequestSchema = z
  .object({
    amount: creditAmountSchema,
    sourceUserId: idSchema,
    targetUserId: idSchema,
    /** The organization whose members they are (CONTRACT §5); needed when they share several the caller manages. */
    organizationId: idSchema.optional(),
  })
  .refine((b) => b.sourceUserId.toLowerCase() !== b.targetUserId.toLowerCase(), {
    path: ['targetUserId'],
    message: DIFFERENT.user,
  })
  .meta({ id: 'TransferCreditsBetweenUsers' });
export type TransferUsersRequest = z.infer<typeof transferUsersRequestSchema>;

export const MAX_DESCRIPTION_LENGTH = 500;

export const allocateSystemCreditsRequestSchema = z
  .object({
    organizationId: idSchema,
    amount: creditAmountSchema,
    toPool: poolSchema,
    description: freeText()
      .min(1, MSG.required)
      .max(MAX_DESCRIPTION_LENGTH, `At most ${MAX_DESCRIPTION_LENGTH} characters.`),
  })
  .meta({ id: 'AllocateSystemCredits' });
export type AllocateSystemCreditsRequest = z.infer<typeof allocateSystemCreditsRequestSchema>;

/** What a credit move answers: the journal transaction and the balances it left, for every party. */
export const creditMoveResponseSchema = z
  .object({
    transactionId: uuidOut(),
    action: z.enum(CREDIT_ACTIONS),
    /** Credits each target received (or each source gave, for a reclaim). */
    amount: z.number().int(),
    /** Credits the call moved in all. */
    total: z.number().int(),
    organizations: z.array(
      z.object({
        id: uuidOut(),
        name: z.string(),
        credits: z.object({ shared: z.number().int(), protected: z.number().int() }),
      }),
    ),
    users: z.array(z.object({ id: uuidOut(), name: z.string(), credits: z.number().int() })),
  })
  .meta({ id: 'CreditMoveResult' });
export type CreditMoveResponse = z.infer<typeof creditMoveResponseSchema>;

/** `Idempotency-Key` (CONTRACT §5): 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_MESSAGE = 'An Idempotency-Key is 1 to 255 printable ASCII characters.';

export const creditLogQuerySchema = z
  .object({
    limit: intParam(1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    pageToken: text().max(200, 'This page token is not valid.').optional(),
    ...dateRangeShape,
  })
  .refine(refineDateRange, { message: DATE_RANGE_MESSAGE, path: ['from'] });
export type CreditLogQuery = z.infer<typeof creditLogQuerySchema>;

/** The credit log's CSV export (CONTRACT §10): the list's date range, every page. */
export const creditLogExportQuerySchema = z
  .object(dateRangeShape)
  .refine(refineDateRange, { message: DATE_RANGE_MESSAGE, path: ['from'] });
export type CreditLogExportQuery = z.infer<typeof creditLogExportQuerySchema>;

/** The credit log CSV's columns, in order (the file's header row). */
export const CREDIT_LOG_CSV_HEADER = [
  'Date (UTC)',
  'Action',
  'Credits',
  'Description',
  'By',
  'By email',
  'Entry ID',
] as const;

export const creditLogEntrySchema = z
  .object({
    id: uuidOut(),
    date: dateTimeOut(),
    action: z.enum(CREDIT_ACTIONS),
    /** Signed change of the organization's pools; for a move inside it, the amount moved. */
    credits: z.number().int(),
    description: z.string(),
    /**
     * Who made the move; null for moves no person made (seed data). Someone who is not a member of the
     * organization's subtree (nor above it) reads `{id: null, name: 'Someone outside this organization',
     * email: null}` (CONTRACT §5).
     */
    by: personInLogSchema.nullable(),
  })
  .meta({ id: 'CreditLogEntry' });
export type CreditLogEntry = z.infer<typeof creditLogEntrySchema>;

export const creditLogPageSchema = z
  .object({
    data: z.array(creditLogEntrySchema),
    pagination: z.object({
      limit: z.number().int(),
      hasNext: z.boolean(),
      nextPageToken: z.string().nullable(),
    }),
  })
  .meta({ id: 'CreditLogPage' });
export type CreditLogPage = z.infer<typeof creditLogPageSchema>;
