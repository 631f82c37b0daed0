/** What other features may use of `invoices`. They import '../invoices', never its files: biome.json's noRestrictedImports holds it. */
export { voidOpenInvoicesOf } from './void-with-organization';
