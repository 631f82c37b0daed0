/** What other features may use of `licenses`. They import '../licenses', never its files: biome.json's noRestrictedImports holds it. */
export {
  changeExpiry,
  changeLicense,
  type LicenseEntry,
  openLicense,
  returnLicensesToParent,
} from './ledger';
export { assignLicenses } from './move-licenses';
export {
  type LicenseRow,
  licenseColumns,
  licenseSourceJoins,
  organizationLicensesJson,
  toLicense,
} from './queries';
export {
  allocateSeats,
  freeSeats,
  freeSeatTypesOf,
  lockOrganizationSeats,
  type SeatLicense,
  unknownLicense,
} from './seats';
