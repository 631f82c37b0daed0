/** What other features may use of `users`. They import '../users', never its files: biome.json's noRestrictedImports holds it. */
export { applyMemberPlan, planMembers } from './add-members';
