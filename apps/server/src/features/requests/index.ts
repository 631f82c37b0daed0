/** What other features may use of `requests`. They import '../requests', never its files: biome.json's noRestrictedImports holds it. */
export { cancelOpenRequestsOf, holdOpenRequestsOf } from './cancel-request';
