/** What other features may use of `insights`. They import '../insights', never its files: biome.json's noRestrictedImports holds it. */
export { rollUpBeforeRead, subtreeMemberCreditsSql, subtreePoolsSql } from './credit-usage';
export { daysLeftOf, daysLeftSql } from './credit-usage-days-left';
export { rollUpCreditUsage } from './usage-rollup';
