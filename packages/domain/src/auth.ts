import { z } from 'zod';
import { APP_MSG, MSG } from './messages';
import { ROLES } from './roles';
import { emailOut, emailSchema, idSchema, text, uuidOut } from './text';

export { emailSchema };

export const PASSWORD_MIN_LENGTH = 10;

export const loginRequestSchema = z
  .object({ email: emailSchema, password: text().min(1, MSG.required).max(1024) })
  .meta({ id: 'Login' });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z
  .object({
    secToken: z.string().describe('The bearer token of the new session'),
    userId: uuidOut(),
    userEmail: emailOut(),
    role: z.enum(ROLES).describe('The account’s highest role'),
  })
  .meta({ id: 'Session' });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const validateRequestSchema = z
  .object({ id: text().min(1, MSG.required).max(100), email: text().min(1, MSG.required).max(254) })
  .meta({ id: 'ValidateSession' });
export const validateResponseSchema = z.object({ valid: z.boolean() }).meta({ id: 'Validity' });

export const successResponseSchema = z.object({ success: z.boolean() }).meta({ id: 'Success' });

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

export const passwordSchema = text()
  .min(1, MSG.required)
  .min(PASSWORD_MIN_LENGTH, APP_MSG.passwordTooShort)
  .max(1024);

/** The 6-digit code of a reset or verification mail. */
export const oneTimeCodeSchema = text()
  .trim()
  .min(1, MSG.required)
  .regex(/^\d+$/, MSG.onlyNumbers)
  .length(6, APP_MSG.codeFormat);

/** The user id and token of the reset link `/password/token/{userId}/{token}`. */
const resetLinkFields = {
  userId: text().min(1, MSG.required).max(64),
  token: text().min(1, MSG.required).max(128),
};

export const forgotPasswordRequestSchema = z.object({ email: emailSchema }).meta({ id: 'ForgotPassword' });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const checkResetCodeRequestSchema = z
  .object({ ...resetLinkFields, code: oneTimeCodeSchema })
  .meta({ id: 'CheckResetCode' });
export type CheckResetCodeRequest = z.infer<typeof checkResetCodeRequestSchema>;

export const resetPasswordRequestSchema = z
  .object({ ...resetLinkFields, code: oneTimeCodeSchema, password: passwordSchema })
  .meta({ id: 'ResetPassword' });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const verifyEmailRequestSchema = z
  .object({
    email: emailSchema,
    code: oneTimeCodeSchema,
    password: passwordSchema
      .optional()
      .describe('Required when the account has no password yet (an invitation), ignored otherwise'),
  })
  .meta({ id: 'VerifyEmail' });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

export const resendVerificationRequestSchema = z
  .object({ email: emailSchema })
  .meta({ id: 'ResendVerification' });
export type ResendVerificationRequest = z.infer<typeof resendVerificationRequestSchema>;

/** The web form of a new password: the password and its repeat ('Fields don't match'). */
export const newPasswordFormSchema = z
  .object({ password: passwordSchema, repeat: text().min(1, MSG.required) })
  .refine((values) => values.password === values.repeat, { path: ['repeat'], message: MSG.fieldsDontMatch });
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

/**
 * POST /api/auth/invitation/accept: an account that already existed joins the organization it was invited
 * to with the mailed code (and sets a password when it has none yet).
 */
export const acceptInvitationRequestSchema = z
  .object({
    email: emailSchema,
    organizationId: idSchema,
    code: oneTimeCodeSchema,
    password: passwordSchema.optional(),
  })
  .meta({ id: 'AcceptInvitation' });
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;
export const acceptInvitationResponseSchema = z
  .object({ success: z.boolean(), organizationId: uuidOut() })
  .meta({ id: 'InvitationAccepted' });

/** POST /api/auth/invitation/resend: a new code for an open invitation; the same answer whatever the email. */
export const resendInvitationRequestSchema = z
  .object({ email: emailSchema, organizationId: idSchema })
  .meta({ id: 'ResendInvitation' });
export type ResendInvitationRequest = z.infer<typeof resendInvitationRequestSchema>;

/** POST /api/auth/email/confirm: the code mailed to the new address, from the link /email/confirm/{userId}/{token}. */
export const confirmEmailChangeRequestSchema = z
  .object({ ...resetLinkFields, code: oneTimeCodeSchema, password: passwordSchema.optional() })
  .meta({ id: 'ConfirmEmailChange' });
export type ConfirmEmailChangeRequest = z.infer<typeof confirmEmailChangeRequestSchema>;
export const confirmEmailChangeResponseSchema = z
  .object({ success: z.boolean(), email: emailOut() })
  .meta({ id: 'EmailChanged' });

/** Codes of reset, verification and invitation mails (CONTRACT §3: 30 minutes). */
export const CODE_MINUTES = 30;
