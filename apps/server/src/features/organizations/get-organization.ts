import type { Organization, OrganizationSecurity, OrganizationSummary } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { preparedRead } from '../../db/prepared-rows';
import { AppError } from '../../http/app-error';
import type { AuthUser, SessionInQuery } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { MANAGING_ROLES_SQL } from '../../lib/managing-roles';
import { hashToken, type SessionRow, sessionOfTokenSql, signedInFrom } from '../auth';
import { type LicenseRow, organizationLicensesJson, toLicense } from '../licenses';
import { accessFromRoles, rolesHeldByCallerSql } from '../organization-access';
import {
  organizationSummariesJson,
  organizationSummaryJson,
  type SummaryRow,
  selectOrganizationSummaries,
  toSummary,
} from './queries';
import { organizationSecurityJson } from './update-organization-security';

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
                 where user_id = ${user.userId} and role in ${MANAGING_ROLES_SQL})`,
  );
}

export interface OrganizationParts {
  licenses: boolean;
  subOrganizations: boolean;
  credits: boolean;
  permissionsAndRole: boolean;
}

type OrganizationRow = {
  caller: SessionRow | null;
  roles: string[];
  summary: SummaryRow | null;
  licenses: LicenseRow[] | null;
  children: SummaryRow[] | null;
  security: OrganizationSecurity | null;
};

/**
 * The read of one organization, built once per shape: the caller (a session to look up, or a user known
 * already) and the parts asked for (`preparedRead`).
 */
const readOrganization = preparedRead<{
  id: string;
  tokenHash: string | null;
  userId: string | null;
  isSystemAdmin: boolean | null;
}>((v, shape) => {
  const [callerKind, licenses, subOrganizations] = shape.split(':');
  const inRead = callerKind === 'session';
  const caller = inRead
    ? { userId: sql`(select user_id from caller)`, isSystemAdmin: sql`(select is_system_admin from caller)` }
    : { userId: sql`${v.userId}::uuid`, isSystemAdmin: sql`${v.isSystemAdmin}::boolean` };
  return sql`${inRead ? sql`with caller as (${sessionOfTokenSql(v.tokenHash)})` : sql``}
      select ${inRead ? sql`(select row_to_json(caller) from caller)` : sql`null`} as caller,
      ${rolesHeldByCallerSql(caller, sql`${v.id}::uuid`)} as roles,
      ${organizationSummaryJson(sql`o.id = ${v.id}::uuid`)} as summary,
      ${licenses === 'licenses' ? organizationLicensesJson(sql`${v.id}::uuid`) : sql`null`} as licenses,
      ${
        subOrganizations === 'children'
          ? organizationSummariesJson(sql`o.parent_id = ${v.id}::uuid`, {
              limit: EMBEDDED_SUB_ORGANIZATIONS_LIMIT,
            })
          : sql`null`
      } as children,
      ${organizationSecurityJson(sql`${v.id}::uuid`)} as security`;
});

/**
 * One query: the access check, the summary and the parts asked for; for a caller known by its token
 * (`sessionInQuery`), its session too (one round trip for the whole call). The query runs where `reads` says (a
 * replica that has replayed everything committed before it, decision 018); the session's last use is
 * written on `db`.
 */
export async function getOrganization(
  db: Tx,
  caller: AuthUser | SessionInQuery,
  id: string,
  parts: OrganizationParts,
  reads: () => Promise<Tx> = async () => db,
): Promise<Organization> {
  if (!isUuid(id)) throw AppError.notFound();
  const inRead = 'token' in caller;
  const shape = `${inRead ? 'session' : 'user'}:${parts.licenses ? 'licenses' : ''}:${parts.subOrganizations ? 'children' : ''}`;
  const [row] = await readOrganization<OrganizationRow>(await reads(), shape, {
    id,
    tokenHash: inRead ? hashToken(caller.token) : null,
    userId: inRead ? null : caller.userId,
    isSystemAdmin: inRead ? null : caller.isSystemAdmin,
  });
  if (inRead) await signedInFrom(db, caller, row?.caller);
  const access = accessFromRoles(row?.roles);
  const summary = row?.summary;
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
