import { z } from 'zod';
import { creditAmountSchema, MAX_DESCRIPTION_LENGTH } from './credits';
import { ERROR_CODES, errorBodySchema } from './errors';
import { MSG } from './messages';
import { LICENSE_TYPES, type LicenseType } from './organizations';
import { dateTimeOut, emailOut, emailSchema, freeText, idSchema, singleLineText, uuidOut } from './text';

/*
 * The classroom product's side (CONTRACT §9, issue 15): integration keys, the entitlement check,
 * consumption, and the daily limit. Server and web read the shapes and texts from here.
 */

/** Every integration key starts so; a bearer token that does not is a session token. */
export const INTEGRATION_KEY_PREFIX = 'allot_sk_';
/** How many characters of a key its list shows (the prefix and 6 more). */
export const INTEGRATION_KEY_SHOWN_LENGTH = INTEGRATION_KEY_PREFIX.length + 6;
export const MAX_INTEGRATION_KEY_NAME = 100;

export function isIntegrationKey(token: string): boolean {
  return token.startsWith(INTEGRATION_KEY_PREFIX);
}

export const integrationKeySchema = z
  .object({
    id: uuidOut(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to tell keys apart'),
    createdBy: z.object({ id: uuidOut(), name: z.string() }).nullable(),
    createdAt: dateTimeOut(),
    lastUsedAt: dateTimeOut().nullable(),
  })
  .meta({ id: 'IntegrationKey' });
export type IntegrationKey = z.infer<typeof integrationKeySchema>;

export const createIntegrationKeyRequestSchema = z
  .object({ name: singleLineText().min(1, MSG.required).max(MAX_INTEGRATION_KEY_NAME) })
  .meta({ id: 'CreateIntegrationKey' });
export type CreateIntegrationKeyRequest = z.infer<typeof createIntegrationKeyRequestSchema>;

export const createdIntegrationKeySchema = z
  .object({
    id: uuidOut(),
    name: z.string(),
    prefix: z.string(),
    key: z.string().describe('The key itself: shown this once, only its hash is kept'),
    createdAt: dateTimeOut(),
  })
  .meta({ id: 'CreatedIntegrationKey' });
export type CreatedIntegrationKey = z.infer<typeof createdIntegrationKeySchema>;

/**
 * Why a teacher may not use the product now (CONTRACT §9), in the order a person fixes them: join, verify
 * the account, get the organization a licence, renew it, take a seat, get credits.
 */
export const ENTITLEMENT_REASONS = [
  'not_a_member',
  'not_verified',
  'no_licence_of_type',
  'licence_expired',
  'no_seat',
  'no_credits',
] as const;
export type EntitlementReason = (typeof ENTITLEMENT_REASONS)[number];

/** What the users screen's "Why can't this teacher use it?" panel says of each reason. */
export const ENTITLEMENT_REASON_TEXT: Record<EntitlementReason, string> = {
  not_a_member: 'Has not accepted the invitation to this organization yet.',
  not_verified: 'Has not set up the account from the invitation mail yet.',
  no_licence_of_type: 'The organization has no licence of this product.',
  licence_expired: 'The organization’s licence of this product has expired.',
  no_seat: 'Holds no seat of this product’s licence.',
  no_credits: 'Has no credits, and the shared pool is empty.',
};

const licenseTypeSchema = z.enum(LICENSE_TYPES);

export const entitlementQuerySchema = z.object({
  email: emailSchema,
  licenseType: licenseTypeSchema.optional().describe('Without it: any licence the teacher holds a seat of'),
  organizationId: idSchema
    .optional()
    .describe('The organization to answer for, when the teacher belongs to several in the key’s subtree'),
});
export type EntitlementQuery = z.infer<typeof entitlementQuerySchema>;

/** The panel's form of the check: the user is named by the path, in the organization of the path. */
export const memberEntitlementQuerySchema = z.object({ licenseType: licenseTypeSchema.optional() });

export const entitlementSchema = z
  .object({
    entitled: z.boolean(),
    userId: uuidOut(),
    email: emailOut(),
    organizationId: uuidOut(),
    licenseType: licenseTypeSchema.nullable(),
    expireAt: dateTimeOut().nullable().describe('The licence’s expiry'),
    credits: z.object({
      own: z.number().int().describe('The teacher’s own balance'),
      shared: z.number().int().describe('The organization’s shared pool, which the teacher draws from next'),
    }),
    reasons: z.array(z.enum(ENTITLEMENT_REASONS)),
  })
  .meta({ id: 'Entitlement' });
export type Entitlement = z.infer<typeof entitlementSchema>;

export const MAX_REFERENCE_LENGTH = 200;

export const consumeRequestSchema = z
  .object({
    email: emailSchema,
    credits: creditAmountSchema,
    reference: singleLineText()
      .min(1, MSG.required)
      .max(MAX_REFERENCE_LENGTH)
      .describe('What the credits paid for in the classroom product (its own id); shown in the credit log'),
    description: freeText().max(MAX_DESCRIPTION_LENGTH).optional(),
    licenseType: licenseTypeSchema.optional(),
    organizationId: idSchema.optional(),
  })
  .meta({ id: 'Consume' });
export type ConsumeRequest = z.infer<typeof consumeRequestSchema>;

export const consumeResponseSchema = z
  .object({
    consumed: z.number().int(),
    fromOwn: z.number().int(),
    fromShared: z.number().int(),
    balances: z.object({ own: z.number().int(), shared: z.number().int() }),
  })
  .meta({ id: 'Consumption' });
export type ConsumeResponse = z.infer<typeof consumeResponseSchema>;

/** The most consumptions one `POST /api/integration/consume/batch` carries (CONTRACT §9). */
export const MAX_CONSUME_BATCH_ITEMS = 100;
const BATCH_SIZE_MESSAGE = `A batch holds 1 to ${MAX_CONSUME_BATCH_ITEMS} consumptions.`;

export const consumeBatchRequestSchema = z
  .object({
    items: z
      .array(consumeRequestSchema)
      .min(1, BATCH_SIZE_MESSAGE)
      .max(MAX_CONSUME_BATCH_ITEMS, BATCH_SIZE_MESSAGE)
      .describe(
        `1 to ${MAX_CONSUME_BATCH_ITEMS} consumptions, each as \`POST /api/integration/consume\` takes one; applied in this order`,
      ),
  })
  .meta({ id: 'ConsumeBatch' });
export type ConsumeBatchRequest = z.infer<typeof consumeBatchRequestSchema>;
/** One consumption of a batch: the single call's request. */
export type ConsumeBatchItem = ConsumeRequest;

const consumedItemSchema = z
  .object({
    reference: z.string().describe('The item’s `reference`'),
    status: z.literal('consumed'),
    ...consumeResponseSchema.shape,
  })
  .meta({ id: 'ConsumeBatchConsumed' });

const refusedItemSchema = z
  .object({
    reference: z.string().describe('The item’s `reference`'),
    status: z.literal('refused'),
    consumed: z.literal(0),
    fromOwn: z.literal(0),
    fromShared: z.literal(0),
    balances: z
      .null()
      .describe(
        'Always null on a refusal: what the teacher can spend is in `details` where the refusal is about credits (`available` of `insufficient_credits`, `limit` and `left` of `daily_limit`)',
      ),
    error: z
      .enum(ERROR_CODES)
      .describe(
        'The error code the single call would answer for this item: `not_found`, `invalid_input` (several organizations, `details.organizations`), `business_rule`, `insufficient_credits`, `daily_limit`',
      ),
    message: z.string().describe('The single call’s message'),
    details: errorBodySchema.shape.details.describe('The single call’s `details`, when it has some'),
  })
  .meta({ id: 'ConsumeBatchRefused' });

/** One item's answer: consumed as the single call answers, or refused as it would be (nothing taken). */
export const consumeBatchResultSchema = z.discriminatedUnion('status', [
  consumedItemSchema,
  refusedItemSchema,
]);
export type ConsumeBatchResult = z.infer<typeof consumeBatchResultSchema>;

export const consumeBatchResponseSchema = z
  .object({
    results: z.array(consumeBatchResultSchema).describe('One result for each item, in the order of `items`'),
  })
  .meta({ id: 'ConsumptionBatch' });
export type ConsumeBatchResponse = z.infer<typeof consumeBatchResponseSchema>;

/** General information's 'Daily limit' (issue 15): null is no limit. */
export const integrationSettingsSchema = z
  .object({
    dailyConsumptionLimit: z.number().int().nullable(),
    consumedToday: z.number().int().describe('Credits consumed in the organization today (UTC)'),
  })
  .meta({ id: 'IntegrationSettings' });
export type IntegrationSettings = z.infer<typeof integrationSettingsSchema>;

export const updateIntegrationSettingsRequestSchema = z
  .object({ dailyConsumptionLimit: creditAmountSchema.nullable() })
  .meta({ id: 'UpdateIntegrationSettings' });
export type UpdateIntegrationSettingsRequest = z.infer<typeof updateIntegrationSettingsRequestSchema>;

/** The texts of the integration calls' refusals. */
export const INTEGRATION_MSG = {
  insufficientCredits: (available: number) =>
    `Not enough credits: ${available} available to this teacher (own balance and shared pool).`,
  dailyLimit: (limit: number, left: number) =>
    `The organization's daily limit of ${limit} credits would be passed: ${left} left today.`,
  ambiguous: 'This teacher belongs to several organizations here: name one with organizationId.',
  keyOnly: 'This call takes an integration key (allot_sk_…), not a session token.',
  sessionOnly: 'An integration key works on the integration calls only.',
  keyRevoked: 'This integration key is revoked or unknown.',
  batchSize: BATCH_SIZE_MESSAGE,
} as const;

export type { LicenseType };
