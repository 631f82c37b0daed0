import type { OrganizationSummary, OrganizationType } from '@allot/domain/organizations';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';

interface SummaryRow {
  id: string;
  name: string;
  type: string;
  phone_number: string;
  parent_id: string | null;
  admin_name: string | null;
  admin_email: string | null;
  users_count: number | string;
  sub_organizations_count: number | string;
  shared: number | string | null;
  protected: number | string | null;
}

/** The columns of an organization summary (CONTRACT §4), for the organizations `o` picked by `where`. */
export async function selectOrganizationSummaries(db: Tx, where: SQL, options: { limit?: number } = {}) {
  const result = await rows<SummaryRow>(
    db,
    sql`
    select o.id, o.name, o.type, o.phone_number, o.parent_id,
      owner.name as admin_name, owner.email as admin_email,
      (select count(*) from memberships m where m.organization_id = o.id) as users_count,
      (select count(*) from organizations c where c.parent_id = o.id) as sub_organizations_count,
      (select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'shared') as shared,
      (select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'protected') as protected
    from organizations o
    left join memberships om on om.organization_id = o.id and om.role = 'organization_owner'
    left join users owner on owner.id = om.user_id
    where ${where}
    order by o.name, o.id
    ${options.limit === undefined ? sql`` : sql`limit ${options.limit}`}`,
  );
  return result.map(toSummary);
}

function toSummary(row: SummaryRow): OrganizationSummary {
  return {
    id: row.id,
    name: row.name,
    type: row.type as OrganizationType,
    phoneNumber: row.phone_number,
    parentOrganizationId: row.parent_id,
    adminName: row.admin_name,
    adminEmail: row.admin_email,
    usersCount: Number(row.users_count),
    subOrganizationsCount: Number(row.sub_organizations_count),
    credits: { shared: Number(row.shared ?? 0), protected: Number(row.protected ?? 0) },
  };
}
