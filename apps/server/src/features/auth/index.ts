/** What other features may use of `auth`. They import '../auth', never its files: biome.json's noRestrictedImports holds it. */
export {
  emailAddressTakenMail,
  emailChangeCodeMail,
  emailChangeNoticeMail,
  membershipInvitationMail,
} from './account-mails';
export { countOwnCode, turnOffMfa, useOwnCode } from './manage-two-factor';
export {
  endSessionsOfUnenrolled,
  endSessionsWithoutRequiredMfa,
  endSystemAdminSessionsWithoutMfa,
  hasMfaOn,
} from './mfa-requirement';
export {
  CODE_MAX_FAILURES,
  type CodeAttempt,
  issueCode,
  issueCodes,
  mayRequestMail,
} from './one-time-codes';
export { withoutPanelAccess } from './panel-session';
export { hashPassword } from './passwords';
export { type CheckedCode, checkCode, redeemCode } from './redeem-code';
export {
  endSessionsWithoutPanelAccess,
  revokeAllSessions,
  type SessionRow,
  sessionOfTokenSql,
  signedInFrom,
} from './sessions';
export type { SignInSettings } from './sign-in-settings';
export { hashToken } from './tokens';
export { accountByEmail, markVerified, queueInvitations, queueVerification } from './verify-email';
