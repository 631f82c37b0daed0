/** What the configuration says about two-factor sign-in (config.ts; decision 015). */
export interface TwoFactorSettings {
  /** REQUIRE_SYSTEM_ADMIN_MFA: system admins must sign in with two-factor. */
  requireSystemAdmins: boolean;
  /** MFA_ENCRYPTION_KEY: encrypts TOTP secrets at rest; without it they are stored marked plain. */
  encryptionKey: Buffer | undefined;
}

export const NO_TWO_FACTOR_SETTINGS: TwoFactorSettings = {
  requireSystemAdmins: false,
  encryptionKey: undefined,
};
