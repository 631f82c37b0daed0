import { z } from 'zod';
import { LICENSE_TYPES } from './organizations';
import { ROLES } from './roles';

export const organizationUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  locale: z.string(),
  role: z.enum(ROLES),
  credits: z.number().int(),
  licence: z.object({ id: z.string(), licenseType: z.enum(LICENSE_TYPES) }).nullable(),
});
export type OrganizationUser = z.infer<typeof organizationUserSchema>;

export const ORGANIZATION_USER_SORT_KEYS = ['name', 'email', 'role', 'credits'] as const;

export const userSearchItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) })),
});
export type UserSearchItem = z.infer<typeof userSearchItemSchema>;

export const USER_SEARCH_SORT_KEYS = ['name', 'email'] as const;
