import { z } from 'zod';
import { MSG } from './messages';
import { ownCodeField } from './mfa';
import { pageOf } from './pagination';
import { PERMISSIONS, ROLES } from './roles';
import { dateTimeOut, emailOut, idSchema, isEmail, singleLineText, text, uuidOut } from './text';

export const ORGANIZATION_TYPES = [
  'district',
  'school',
  'network',
  'university',
  'company',
  'other',
] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

export const ORGANIZATION_TYPE_LABEL: Record<OrganizationType, string> = {
  district: 'District',
  school: 'School',
  network: 'Network',
  university: 'University',
  company: 'Company',
  other: 'Other',
};

export const PHONE_MIN_DIGITS = 7;

export const phoneNumberSchema = text()
  .trim()
  .min(1, MSG.required)
  .max(32, MSG.phoneMinDigits(PHONE_MIN_DIGITS))
  .refine((v) => /^\+?[\d\s-]+$/.test(v), MSG.onlyNumbers)
  .refine((v) => v.replace(/\D/g, '').length >= PHONE_MIN_DIGITS, MSG.phoneMinDigits(PHONE_MIN_DIGITS));

export const permissionsAndRoleSchema = z
  .object({
    permissions: z.array(z.object({ name: z.enum(PERMISSIONS) })),
    role: z.object({ name: z.enum(ROLES) }),
  })
  .meta({
    id: 'PermissionsAndRole',
    description: 'The caller’s role here (held or inherited) and what it allows',
  });
export type PermissionsAndRole = z.infer<typeof permissionsAndRoleSchema>;

export const creditPoolsSchema = z
  .object({ shared: z.number().int(), protected: z.number().int() })
  .meta({ id: 'CreditPools', description: 'Credits in the organization’s two pools' });

export const LICENSE_TYPES = ['chorus', 'tle_creator', 'tle_teacher', 'chorus_optoma'] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];
export const LICENSE_TYPE_LABEL: Record<LicenseType, string> = {
  chorus: 'Chorus',
  tle_creator: 'TLE Creator',
  tle_teacher: 'TLE Teacher',
  chorus_optoma: 'Chorus Optoma',
};

/** A licence expiring within this many days is flagged in organization lists (and reminded: decision 009). */
export const LICENSE_EXPIRING_SOON_DAYS = 30;

export const licenseSchema = z
  .object({
    id: uuidOut(),
    organizationId: uuidOut(),
    licenseType: z.enum(LICENSE_TYPES),
    expireAt: dateTimeOut(),
    maxUsers: z.number().int(),
    usedSeats: z.number().int(),
    metadata: z.record(z.string(), z.unknown()),
    expired: z.boolean().describe('Past its expiry: it gives no seats, its holders are not entitled'),
    handedDown: z
      .number()
      .int()
      .describe('Seats handed down from it, at every level below (those licences follow its expiry)'),
    source: z
      .object({ licenseId: uuidOut(), organizationId: uuidOut(), organizationName: z.string() })
      .nullable()
      .describe('The licence above its seats came from, whose expiry it follows; null for one of its own'),
  })
  .meta({ id: 'License' });
export type License = z.infer<typeof licenseSchema>;

export const licenseExpiringSoonSchema = z
  .object({ licenseType: z.enum(LICENSE_TYPES), expireAt: dateTimeOut() })
  .meta({
    id: 'LicenseExpiringSoon',
    description: `Present only when a licence of the organization expires within ${LICENSE_EXPIRING_SOON_DAYS} days and has not expired yet: the one that expires first (a licence handed down that holds no seat does not count). The organization picker flags it.`,
  });

/** Who must sign in with two-factor here (CONTRACT §3, decision 015). */
export const organizationSecuritySchema = z
  .object({
    requireMfa: z
      .boolean()
      .describe(
        'Set on this organization: its owners and admins, and those of every organization below it, sign in with two-factor',
      ),
    requiredAbove: z
      .object({ id: uuidOut(), name: z.string() })
      .nullable()
      .describe(
        'The highest organization above this one that requires two-factor too: it applies here whatever this organization’s own setting says; null when none does',
      ),
  })
  .meta({ id: 'OrganizationSecurity' });
export type OrganizationSecurity = z.infer<typeof organizationSecuritySchema>;

export const updateOrganizationSecurityRequestSchema = z
  .object({
    requireMfa: z
      .boolean()
      .describe(
        'Require two-factor sign-in of the owners and admins of this organization and everything below',
      ),
    code: ownCodeField,
  })
  .meta({ id: 'UpdateOrganizationSecurity' });
export type UpdateOrganizationSecurityRequest = z.infer<typeof updateOrganizationSecurityRequestSchema>;

const organizationBase = z.object({
  id: uuidOut(),
  name: z.string(),
  type: z.enum(ORGANIZATION_TYPES),
  phoneNumber: z.string(),
  parentOrganizationId: uuidOut().nullable(),
  adminName: z.string().nullable(),
  adminEmail: emailOut().nullable(),
  usersCount: z.number().int(),
  subOrganizationsCount: z.number().int(),
  licenseExpiringSoon: licenseExpiringSoonSchema.optional(),
});

export const organizationSummarySchema = organizationBase
  .extend({ credits: creditPoolsSchema })
  .meta({ id: 'OrganizationSummary', description: 'An organization as lists show it' });
export const organizationPageSchema = pageOf(organizationSummarySchema, 'OrganizationPage');
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;

export const organizationSchema = organizationBase
  .extend({
    credits: creditPoolsSchema.optional(),
    licenses: z.array(licenseSchema).optional(),
    subOrganizations: z.array(organizationSummarySchema).optional(),
    permissionsAndRole: permissionsAndRoleSchema.optional(),
    security: organizationSecuritySchema
      .optional()
      .describe('Two-factor requirements; always part of `GET /api/organization/{id}`'),
  })
  .meta({
    id: 'Organization',
    description: 'An organization; the optional parts come with their query flags',
  });
export type Organization = z.infer<typeof organizationSchema>;

/** Query flags of GET /api/organization/{id}: "true" adds that part. */
const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');
export const organizationQuerySchema = z.object({
  licenses: flag,
  subOrganizations: flag,
  credits: flag,
  permissionsAndRole: flag,
});

export const organizationIdParamsSchema = z.object({ id: idSchema });

const nameSchema = singleLineText().min(1, MSG.required).max(200, 'Name must be at most 200 characters.');

const typeSchema = z.enum(ORGANIZATION_TYPES);

export const createOrganizationRequestSchema = z
  .object({
    name: nameSchema,
    phoneNumber: phoneNumberSchema,
    type: typeSchema,
    parentOrganizationId: idSchema.nullish(),
    adminName: singleLineText().max(200, 'Name must be at most 200 characters.').optional(),
    /** Empty: no owner yet. */
    adminEmail: text()
      .trim()
      .max(254, MSG.invalidEmail)
      .refine((v) => !v || isEmail(v), MSG.invalidEmail)
      .optional(),
  })
  .meta({ id: 'CreateOrganization' });
export type CreateOrganizationRequest = z.infer<typeof createOrganizationRequestSchema>;

export const updateOrganizationRequestSchema = z
  .object({ name: nameSchema, type: typeSchema, phoneNumber: phoneNumberSchema })
  .meta({ id: 'UpdateOrganization' });
export type UpdateOrganizationRequest = z.infer<typeof updateOrganizationRequestSchema>;

/** Sortable columns of organization lists (sub-organizations, organization search). */
export const ORGANIZATION_SORT_KEYS = [
  'name',
  'type',
  'usersCount',
  'subOrganizationsCount',
  'credits',
  'createdAt',
] as const;
export type OrganizationSortKey = (typeof ORGANIZATION_SORT_KEYS)[number];

/**
 * Sortable columns of the sub-organizations list: those of every organization list and `daysLeft` (issue 16;
 * decision 014, "Days left"), which the organization search does not offer.
 */
export const SUB_ORGANIZATION_SORT_KEYS = [...ORGANIZATION_SORT_KEYS, 'daysLeft'] as const;
export type SubOrganizationSortKey = (typeof SUB_ORGANIZATION_SORT_KEYS)[number];

/** A row of the sub-organizations list: a summary and the days its subtree's credits last at its burn rate. */
export const subOrganizationSummarySchema = organizationSummarySchema
  .extend({
    daysLeft: z
      .number()
      .int()
      .nullable()
      .describe(
        'floor(credits held in its subtree / mean daily consumption of the last 28 complete UTC days), as the forecast of `credit-usage` counts them; null when nothing was consumed or when that is more than 365 days',
      ),
  })
  .meta({ id: 'SubOrganizationSummary' });
export const subOrganizationPageSchema = pageOf(subOrganizationSummarySchema, 'SubOrganizationPage');
export type SubOrganizationSummary = z.infer<typeof subOrganizationSummarySchema>;

export const organizationCreditsSchema = z
  .object({
    shared: z.number().int(),
    protected: z.number().int(),
    users: z.number().int().describe('Credits held by the members'),
    subOrganizations: z.number().int().describe('Credits in the pools of every organization below'),
  })
  .meta({ id: 'OrganizationCredits' });

export const organizationRefSchema = z
  .object({ id: uuidOut(), name: z.string() })
  .meta({ id: 'OrganizationRef', description: 'An organization named by id and name' });
export type OrganizationRef = z.infer<typeof organizationRefSchema>;
export const parentOrganizationsSchema = z.array(organizationRefSchema);

/**
 * An organization found by the organization search: a summary and where it sits, so that two schools of one
 * name can be told apart ("Riverside District › Northside Elementary").
 */
export const organizationSearchResultSchema = organizationSummarySchema
  .extend({
    path: z
      .array(organizationRefSchema)
      .describe(
        'The ancestors of the organization that the caller may see, from the highest down to its parent, with their current names (the organization itself is not included). The path starts at the organization where the caller’s role applies (a system admin: the root), so it is empty for that organization itself.',
      ),
  })
  .meta({
    id: 'OrganizationSearchResult',
    description: 'An organization as the organization search lists it: its summary and its path',
  });
export type OrganizationSearchResult = z.infer<typeof organizationSearchResultSchema>;
export const organizationSearchPageSchema = pageOf(organizationSearchResultSchema, 'OrganizationSearchPage');
