import type { Organization, OrganizationSummary } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../auth/sessions';
import { findOrganizationLicenses } from '../licenses/queries';
import { requireOrganizationAccess } from './access';
import { selectOrganizationSummaries } from './queries';

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

export async function getOrganization(
  db: Db,
  user: AuthUser,
  id: string,
  parts: OrganizationParts,
): Promise<Organization> {
  const access = await requireOrganizationAccess(db, user, id);
  const [summary] = await selectOrganizationSummaries(db, sql`o.id = ${id}`);
  if (!summary) throw AppError.notFound();
  const { credits, ...organization } = summary;
  return {
    ...organization,
    ...(parts.credits ? { credits } : {}),
    ...(parts.licenses ? { licenses: await findOrganizationLicenses(db, id) } : {}),
    ...(parts.subOrganizations
      ? {
          subOrganizations: await selectOrganizationSummaries(db, sql`o.parent_id = ${id}`, {
            limit: EMBEDDED_SUB_ORGANIZATIONS_LIMIT,
          }),
        }
      : {}),
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
