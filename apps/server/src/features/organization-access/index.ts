/** What other features may use of `organization-access`. They import '../organization-access', never its files: biome.json's noRestrictedImports holds it. */
export {
  accessFromRoles,
  effectiveRole,
  type OrganizationAccess,
  requireOrganizationAccess,
  rolesHeldByCallerSql,
  rolesHeldSql,
} from './access';
export { lowerIds, organizationsActedOn, organizationsBelow } from './acted-on';
export { type LockedOrganization, lockOrganization, lockOrganizationChain } from './locks';
export { namedInLogOfSql, personInLog } from './log-names';
export {
  inSubtreesSql,
  managedScope,
  managedScopeSql,
  organizationsInSubtreesSql,
  rootCondition,
} from './scope';
export { requireSystemAdmin } from './system-admin';
