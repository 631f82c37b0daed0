/** What the configuration says about signing in: two-factor and sessions (config.ts; decision 015). */
export interface SignInSettings {
  /** REQUIRE_SYSTEM_ADMIN_MFA: system admins must sign in with two-factor. */
  requireSystemAdmins: boolean;
  /** MFA_ENCRYPTION_KEY: encrypts TOTP secrets at rest; without it they are stored marked plain. */
  encryptionKey: Buffer | undefined;
  /** SESSION_MAX_DAYS: a session ends this many days after its sign-in, however often it is used. */
  sessionMaxDays: number;
}

export const SESSION_MAX_DAYS_DEFAULT = 30;

export const DEFAULT_SIGN_IN_SETTINGS: SignInSettings = {
  requireSystemAdmins: false,
  encryptionKey: undefined,
  sessionMaxDays: SESSION_MAX_DAYS_DEFAULT,
};
