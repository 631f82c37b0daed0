import { z } from 'zod';
import { MSG } from './messages';
import { ROLES } from './roles';

export const PASSWORD_MIN_LENGTH = 10;

export const emailSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(254, MSG.invalidEmail)
  .pipe(z.email({ error: MSG.invalidEmail }));

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  secToken: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  role: z.enum(ROLES),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const validateRequestSchema = z.object({
  id: z.string().min(1),
  email: z.string().min(1),
});
export const validateResponseSchema = z.object({ valid: z.boolean() });

export const successResponseSchema = z.object({ success: z.boolean() });

/** The session the web app keeps in localStorage: exactly the fields of spec §3. */
export const userSessionSchema = z.object({
  signedIn: z.boolean(),
  secToken: z.string().nullable(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  permissions: z.array(z.string()),
  role: z.enum(ROLES),
});
export type UserSession = z.infer<typeof userSessionSchema>;

export const SIGNED_OUT_SESSION: UserSession = {
  signedIn: false,
  secToken: null,
  userId: null,
  userEmail: null,
  permissions: [],
  role: 'user',
};
