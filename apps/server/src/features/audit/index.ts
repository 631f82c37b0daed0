/** What other features may use of `audit`. They import '../audit', never its files: biome.json's noRestrictedImports holds it. */
export { changedFields } from './changes';
export { type AuditRecord, recordAudit } from './record';
