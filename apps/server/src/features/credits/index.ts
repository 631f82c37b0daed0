/** What other features may use of `credits`. They import '../credits', never its files: biome.json's noRestrictedImports holds it. */
export {
  InsufficientCreditsError,
  organizationPoolAccountId,
  type Posting,
  postCreditTransaction,
  postCreditTransactionsReporting,
  systemAccountId,
} from './journal';
export { assignOrganizations } from './move-organization-credits';
