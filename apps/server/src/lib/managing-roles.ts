import { MANAGING_ROLES } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';

/**
 * `MANAGING_ROLES` of the domain's permission matrix as a SQL list, for `m.role in (…)`: a literal (constants
 * only), so that the plans of the statements that use it stay the same for every call.
 */
export const MANAGING_ROLES_SQL = sql.raw(`(${MANAGING_ROLES.map((role) => `'${role}'`).join(', ')})`);
