import { z } from 'zod';
import { MSG } from './messages';
import { LICENSE_TYPE_LABEL, LICENSE_TYPES, type LicenseType } from './organizations';
import { DEFAULT_PAGE_SIZE, intParam, MAX_PAGE_SIZE } from './pagination';
import { dateTimeOut, emailOut, idSchema, text, uuidOut } from './text';

/** Seats one licence may hold (and one move may carry): far above any school network, far below int4. */
export const MAX_SEATS = 1_000_000;

/** Organizations one licence move may name. */
export const MAX_LICENSE_TARGETS = 1000;

const licenseTypeSchema = z.enum(LICENSE_TYPES);

/** A whole number of seats from `min`, with the spec's texts (missing or not a number: text.ts). */
const seatsSchema = (min: number) =>
  z.number().int(MSG.invalidNumber).min(min, MSG.min(min)).max(MAX_SEATS, MSG.max(MAX_SEATS));

/** An expiry: an ISO date-time (or a date, read as its midnight UTC). */
const expireAtSchema = text()
  .refine((v) => !Number.isNaN(Date.parse(v)), 'Enter a date.')
  .meta({ format: 'date-time' });

/** CONTRACT §7: a licence's `metadata` is a JSON object of at most 16 KB (serialized, UTF-8) and 20 levels deep. */
export const METADATA_MAX_BYTES = 16 * 1024;
export const METADATA_MAX_DEPTH = 20;

/**
 * Whether a JSON value nests at most `limit` levels (an object or an array is a level: `{}` is 1, `{"a": []}`
 * is 2). Walked with a stack of its own, and it stops at the first value deeper than the limit: metadata
 * nested 5,000 deep must be refused, not overflow the call stack (as `JSON.stringify` of it does).
 */
export function nestsWithin(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return false;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return true;
}

/** The serialized size in bytes; only for a value that nests within the limit (`JSON.stringify` recurses). */
const serializedBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export const licenseMetadataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    if (!nestsWithin(value, METADATA_MAX_DEPTH)) {
      ctx.addIssue({ code: 'custom', message: LICENSE_MSG.metadataTooDeep });
    } else if (serializedBytes(value) > METADATA_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: LICENSE_MSG.metadataTooLarge });
    }
  })
  .describe(
    `A JSON object of at most ${METADATA_MAX_BYTES / 1024} KB (serialized) and ${METADATA_MAX_DEPTH} levels deep`,
  );

/** POST /api/license/create (spec §5: a system admin, maxUsers above 0, an organization). */
export const createLicenseRequestSchema = z
  .object({
    organizationId: idSchema,
    licenseType: licenseTypeSchema,
    expireAt: expireAtSchema,
    maxUsers: seatsSchema(1),
    metadata: licenseMetadataSchema.optional(),
  })
  .meta({ id: 'CreateLicense' });
export type CreateLicenseRequest = z.infer<typeof createLicenseRequestSchema>;

/** POST /api/license/{id}/update (spec §5: a system admin, maxUsers not negative). */
export const updateLicenseRequestSchema = z
  .object({
    licenseId: idSchema.optional().describe('The licence of the path, if given; another id is a 400'),
    licenseType: licenseTypeSchema.optional().describe('A licence keeps its type; another type is a 422'),
    expireAt: expireAtSchema,
    maxUsers: seatsSchema(0),
    metadata: licenseMetadataSchema.optional(),
  })
  .meta({ id: 'UpdateLicense' });
export type UpdateLicenseRequest = z.infer<typeof updateLicenseRequestSchema>;

/** Spec §5: items of amount 0 are not sent; the server ignores them too. */
const licenseItemsSchema = z
  .array(z.object({ type: licenseTypeSchema, amount: seatsSchema(0) }))
  .min(1, MSG.required)
  .max(LICENSE_TYPES.length * 4, 'Too many items.')
  .refine((items) => items.some((i) => i.amount > 0), MSG.required);

const orgIdsSchema = z
  .array(idSchema)
  .min(1, MSG.required)
  .max(MAX_LICENSE_TARGETS, `At most ${MAX_LICENSE_TARGETS} organizations at once.`)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
    message: 'Each of the organizations may appear only once.',
  });

export const assignLicensesRequestSchema = z
  .object({
    sourceOrganizationId: idSchema,
    targetOrganizationIds: orgIdsSchema,
    licenses: licenseItemsSchema,
  })
  .meta({ id: 'AssignLicenses' });
export type AssignLicensesRequest = z.infer<typeof assignLicensesRequestSchema>;

export const reclaimLicensesRequestSchema = z
  .object({
    sourceOrganizationIds: orgIdsSchema,
    targetOrganizationId: idSchema,
    licenses: licenseItemsSchema,
  })
  .meta({ id: 'ReclaimLicenses' });
export type ReclaimLicensesRequest = z.infer<typeof reclaimLicensesRequestSchema>;

/** What a licence move answers: every licence it changed, as it is now. */
export const licenseMoveResponseSchema = z
  .object({
    licenses: z.array(
      z.object({
        id: uuidOut(),
        organizationId: uuidOut(),
        organizationName: z.string(),
        licenseType: licenseTypeSchema,
        maxUsers: z.number().int(),
        usedSeats: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'LicenseMoveResult' });
export type LicenseMoveResponse = z.infer<typeof licenseMoveResponseSchema>;

/** What the licence log says happened (decision 009). */
export const LICENSE_ACTIONS = [
  'opening',
  'created',
  'seats_changed',
  'expiry_changed',
  'expiry_followed',
  'deleted',
  'handed_down',
  'received',
  'reclaimed',
  'given_back',
  'organization_deleted',
  'purchased',
] as const;
export type LicenseAction = (typeof LICENSE_ACTIONS)[number];

export const LICENSE_ACTION_LABEL: Record<LicenseAction, string> = {
  opening: 'Seats when the log began',
  created: 'Licence created',
  seats_changed: 'Seats changed',
  expiry_changed: 'Expiry changed',
  expiry_followed: 'Expiry follows the licence above',
  deleted: 'Licence deleted',
  handed_down: 'Seats handed down',
  received: 'Seats received',
  reclaimed: 'Seats reclaimed',
  given_back: 'Seats given back',
  organization_deleted: 'Organization deleted',
  purchased: 'Purchased',
};

export const licenseLogQuerySchema = z.object({
  limit: intParam(1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  pageToken: text().max(200, 'This page token is not valid.').optional(),
});
export type LicenseLogQuery = z.infer<typeof licenseLogQuerySchema>;

export const licenseLogEntrySchema = z
  .object({
    id: uuidOut(),
    date: dateTimeOut(),
    action: z.enum(LICENSE_ACTIONS),
    licenseId: uuidOut(),
    licenseType: licenseTypeSchema,
    seats: z.number().int().describe('Signed change of the licence’s seats'),
    maxUsers: z.number().int().describe('The licence’s seats after the change'),
    expireAt: dateTimeOut().describe('The licence’s expiry after the change'),
    description: z.string(),
    by: z.object({ id: uuidOut(), name: z.string(), email: emailOut() }).nullable(),
  })
  .meta({ id: 'LicenseLogEntry' });
export type LicenseLogEntry = z.infer<typeof licenseLogEntrySchema>;

export const licenseLogPageSchema = z
  .object({
    data: z.array(licenseLogEntrySchema),
    pagination: z.object({
      limit: z.number().int(),
      hasNext: z.boolean(),
      nextPageToken: z.string().nullable(),
    }),
  })
  .meta({ id: 'LicenseLogPage' });
export type LicenseLogPage = z.infer<typeof licenseLogPageSchema>;

/** Texts of the licence calls the spec leaves open (decision 009). */
export const LICENSE_MSG = {
  systemAdminOnly: 'Only a system admin can create, change or delete licences.',
  duplicate: (type: LicenseType) =>
    `This organization already has a ${LICENSE_TYPE_LABEL[type]} licence: extend it or add seats to it instead.`,
  belowUsed: (used: number) =>
    `${used.toLocaleString('en-US')} seats of this licence are in use: it cannot hold fewer.`,
  typeFixed: 'A licence keeps its type: create a licence of the other type instead.',
  inUse: 'Seats of this licence are in use: move those people to another licence or remove them first.',
  handedDown: 'Seats of this licence were handed down to sub-organizations: reclaim them first.',
  otherLicense: 'This is not the licence of the address.',
  notBelow: (name: string) => `Licences move only between ${name} and the organizations below it.`,
  metadataTooDeep: `Metadata may nest at most ${METADATA_MAX_DEPTH} levels deep.`,
  metadataTooLarge: `Metadata may be at most ${METADATA_MAX_BYTES / 1024} KB.`,
} as const;
