import { z } from 'zod';
import { loginResponseSchema } from './auth';
import { MSG } from './messages';
import { text } from './text';

/**
 * Two-factor sign-in (CONTRACT §3, decision 015): TOTP (RFC 6238: 6 digits, 30-second steps, SHA-1, as every
 * authenticator app reads an otpauth:// QR code) and 10 single-use recovery codes.
 */

/** How long the challenge of `403 mfa_required` lives (CONTRACT §3). */
export const MFA_CHALLENGE_MINUTES = 5;
/**
 * How long the challenge of `403 mfa_setup_required` lives: setting up takes longer than typing a code (an
 * authenticator app may have to be installed first).
 */
export const MFA_SETUP_CHALLENGE_MINUTES = 15;
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code as shown: 16 characters of Crockford's base32 (80 bits) in four groups of four. */
export const RECOVERY_CODE_PATTERN = /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/;
/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = 'Allot';

export const MFA_MSG = {
  codeNeeded: 'Enter the code from your authenticator app to finish signing in.',
  setupNeeded: 'Two-factor sign-in is required for your account. Set it up to finish signing in.',
  challengeExpired: 'This sign-in has expired. Please sign in again.',
  wrongCode: 'That code is not valid, or it was already used. Try the newest code of your authenticator app.',
  wrongPassword: 'The password is not right.',
  totpFormat: 'Enter the 6-digit code from your authenticator app.',
  codeFormat: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  alreadyOn: 'Two-factor sign-in is already on for this account.',
  notOn: 'Two-factor sign-in is not on for this account.',
  noSetup: 'Start setting up two-factor sign-in again: no authenticator is waiting to be confirmed.',
  requiredCannotTurnOff:
    'Two-factor sign-in is required for your account (by an organization you manage, or for system admins), so it cannot be turned off.',
  ownerOnly: 'Only an owner of the organization (or a system admin) can change its sign-in requirements.',
  turnOnYoursFirst: 'Turn on two-factor sign-in for your own account before requiring it of others.',
  systemAdminOnly: 'Only a system admin can turn off another person’s two-factor sign-in.',
  ownNeeded:
    'Turn on two-factor sign-in for your own account first: changing how others sign in needs a code from your authenticator app.',
  ownCodeNeeded: 'Enter a code from your authenticator app (or a recovery code) to confirm this change.',
} as const;

/** The 6-digit code of an authenticator app (enabling: a recovery code does not exist yet). */
export const totpCodeSchema = text()
  .trim()
  .min(1, MSG.required)
  .regex(/^\d{6}$/, MFA_MSG.totpFormat)
  .describe('The 6-digit code of the authenticator app');

/** A code that proves the second factor: the app's 6 digits, or one of the recovery codes (used up). */
export const secondFactorCodeSchema = text()
  .trim()
  .min(1, MSG.required)
  .max(64, MFA_MSG.codeFormat)
  .describe('The 6-digit code of the authenticator app, or a recovery code (each works once)');

/** The token of `details.challenge`: what ties the second step to the password the first step checked. */
const challengeSchema = text()
  .min(1, MSG.required)
  .max(200, MFA_MSG.challengeExpired)
  .describe('The `details.challenge` of the sign-in’s `403 mfa_required` or `mfa_setup_required`');

const passwordField = text().min(1, MSG.required).max(1024);

export const mfaStatusSchema = z
  .object({
    enabled: z.boolean().describe('Two-factor sign-in is on'),
    recoveryCodesLeft: z.number().int().describe('Unused recovery codes (0 while two-factor is off)'),
    required: z
      .boolean()
      .describe(
        'An organization where the account is an owner or admin (or one above it) requires it, or the account is a system admin and REQUIRE_SYSTEM_ADMIN_MFA is on',
      ),
  })
  .meta({ id: 'TwoFactorStatus' });
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

export const mfaSetupRequestSchema = z
  .object({
    password: passwordField
      .optional()
      .describe('The account’s password: required with a session, not with a challenge'),
    challenge: challengeSchema.optional(),
  })
  .meta({ id: 'TwoFactorSetup' });
export type MfaSetupRequest = z.infer<typeof mfaSetupRequestSchema>;

export const mfaSetupResponseSchema = z
  .object({
    secret: z.string().describe('The TOTP secret in base32, to type into an authenticator app'),
    otpauthUrl: z.string().describe('The otpauth:// URL of the secret, for a QR code'),
  })
  .meta({ id: 'TwoFactorSecret' });
export type MfaSetupResponse = z.infer<typeof mfaSetupResponseSchema>;

export const mfaEnableRequestSchema = z
  .object({ code: totpCodeSchema, challenge: challengeSchema.optional() })
  .meta({ id: 'TwoFactorEnable' });
export type MfaEnableRequest = z.infer<typeof mfaEnableRequestSchema>;

const recoveryCodesSchema = z
  .array(z.string())
  .describe(`${RECOVERY_CODE_COUNT} recovery codes, shown this once (only their hashes are kept)`);

export const mfaEnableResponseSchema = z
  .object({
    recoveryCodes: recoveryCodesSchema,
    session: loginResponseSchema
      .optional()
      .describe('With a challenge instead of a session: the person is signed in (the sign-in body)'),
  })
  .meta({ id: 'TwoFactorEnabled' });
export type MfaEnableResponse = z.infer<typeof mfaEnableResponseSchema>;

/** Turning off, and new recovery codes: the password and a code (the app's or a recovery code). */
export const mfaConfirmRequestSchema = z
  .object({ password: passwordField, code: secondFactorCodeSchema })
  .meta({ id: 'TwoFactorConfirm' });
export type MfaConfirmRequest = z.infer<typeof mfaConfirmRequestSchema>;

export const recoveryCodesResponseSchema = z
  .object({ recoveryCodes: recoveryCodesSchema })
  .meta({ id: 'RecoveryCodes' });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

export const mfaVerifyRequestSchema = z
  .object({ challenge: challengeSchema, code: secondFactorCodeSchema })
  .meta({ id: 'TwoFactorVerify' });
export type MfaVerifyRequest = z.infer<typeof mfaVerifyRequestSchema>;

/** What `details` of `403 mfa_required` and `403 mfa_setup_required` carry. */
export const mfaChallengeDetailsSchema = z.object({ challenge: z.string() });

/** The secret as people type it: groups of four, easier to read off a screen. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * A code of the caller's own two-factor, for a change to how someone else signs in (CONTRACT §3). Optional in the
 * schema so that a caller without the right to the change hears `403`/`404` first; the service requires it.
 */
export const ownCodeField = secondFactorCodeSchema
  .optional()
  .describe('A code of the caller’s own two-factor (the authenticator app’s, or a recovery code): required');

/** POST /api/user/{id}/mfa/reset: the caller's own code confirms turning off someone's two-factor. */
export const resetUserMfaRequestSchema = z.object({ code: ownCodeField }).meta({ id: 'ResetUserTwoFactor' });
export type ResetUserMfaRequest = z.infer<typeof resetUserMfaRequestSchema>;
