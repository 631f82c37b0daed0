import type { Organization, OrganizationSecurity, OrganizationSummary } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { type LicenseRow, organizationLicensesJson, toLicense } from '../licenses/queries';
import { accessFromRoles, rolesHeldSql } from '../organization-access/access';
import {
  organizationSummariesJson,
  type SummaryRow,
  selectOrganizationSummaries,
  toSummary,
} from './queries';
import { organizationSecurityJson } from './security-service';

/**
 * The embedded list of children is the first page of the sub-organizations table (by name, the
 * default page size); the paginated sub-organizations call has them all.
 */
export const EMBEDDED_SUB_ORGANIZATIONS_LIMIT = 20;

/** Organizations where the caller holds a panel role directly; for a system admin, the roots. */
export async function listMyOrganizations(db: Db, user: AuthUser): Promise<OrganizationSummary[]> {
  if (user.isSystemAdmin) return selectOrganizationSummaries(db, sql`o.parent_id is null`);
  return selectOrganizationSummaries(
    db,
    sql`o.id in (select organization_id from memberships
                 where user_id = ${user.userId} and role in ('organization_owner', 'organization_admin'))`,
  );
}

export interface OrganizationParts {
  licenses: boolean;
  subOrganizations: boolean;
  credits: boolean;
  permissionsAndRole: boolean;
}

/** One query: the access check, the summary and the parts asked for. */
export async function getOrganization(
  db: Db,
  user: AuthUser,
  id: string,
  parts: OrganizationParts,
): Promise<Organization> {
  const [row] = await preparedRows<{
    roles: string[];
    summary: SummaryRow[];
    licenses: LicenseRow[] | null;
    children: SummaryRow[] | null;
    security: OrganizationSecurity | null;
  }>(
    db,
    sql`select ${rolesHeldSql(user, id)} as roles,
      ${organizationSummariesJson(sql`o.id = ${id}`)} as summary,
      ${parts.licenses ? organizationLicensesJson(id) : sql`null`} as licenses,
      ${
        parts.subOrganizations
          ? organizationSummariesJson(sql`o.parent_id = ${id}`, { limit: EMBEDDED_SUB_ORGANIZATIONS_LIMIT })
          : sql`null`
      } as children,
      ${organizationSecurityJson(id)} as security`,
  );
  const access = accessFromRoles(row?.roles);
  const summary = row?.summary[0];
  if (!summary) throw AppError.notFound();
  const { credits, ...organization } = toSummary(summary);
  return {
    ...organization,
    ...(row.security ? { security: row.security } : {}),
    ...(parts.credits ? { credits } : {}),
    ...(parts.licenses ? { licenses: (row.licenses ?? []).map(toLicense) } : {}),
    ...(parts.subOrganizations ? { subOrganizations: (row.children ?? []).map(toSummary) } : {}),
    ...(parts.permissionsAndRole
      ? {
          permissionsAndRole: {
            role: { name: access.role },
            permissions: access.permissions.map((name) => ({ name })),
          },
        }
      : {}),
  };
}
