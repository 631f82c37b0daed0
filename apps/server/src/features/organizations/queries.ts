import type { OrganizationSortKey, OrganizationSummary, OrganizationType } from '@allot/domain/organizations';
import type { PaginationQuery } from '@allot/domain/pagination';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { containsPattern } from '../../lib/search';

type SummaryRow = {
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
};

/** Sort keys that are plain columns: the page is cut before the per-row counts are computed. */
const COLUMN_KEYS: Partial<Record<OrganizationSortKey, { inner: SQL; outer: SQL }>> = {
  name: { inner: sql`o.name`, outer: sql`s.name` },
  type: { inner: sql`o.type`, outer: sql`s.type` },
  createdAt: { inner: sql`o.created_at`, outer: sql`s.created_at` },
};
const COMPUTED_KEYS: Record<Exclude<OrganizationSortKey, 'name' | 'type' | 'createdAt'>, SQL> = {
  usersCount: sql`s.users_count`,
  subOrganizationsCount: sql`s.sub_organizations_count`,
  credits: sql`coalesce(s.shared, 0) + coalesce(s.protected, 0)`,
};

/** The summary columns of CONTRACT §4 for each row of `base` (a relation of organizations named `o`). */
function summarise(base: SQL) {
  return sql`
    select o.id, o.name, o.type, o.phone_number, o.parent_id, o.created_at,
      owner.name as admin_name, owner.email as admin_email,
      (select count(*) from memberships m where m.organization_id = o.id) as users_count,
      (select count(*) from organizations c where c.parent_id = o.id and c.deleted_at is null) as sub_organizations_count,
      (select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'shared') as shared,
      (select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'protected') as protected
    from (${base}) o
    left join memberships om on om.organization_id = o.id and om.role = 'organization_owner'
    left join users owner on owner.id = om.user_id`;
}

/** Summaries of the live organizations picked by `where` (over `o`), by name. */
export async function selectOrganizationSummaries(db: Tx, where: SQL, options: { limit?: number } = {}) {
  const base = sql`select * from organizations o where o.deleted_at is null and (${where})
    order by o.name, o.id ${options.limit === undefined ? sql`` : sql`limit ${options.limit}`}`;
  const result = await rows<SummaryRow>(db, sql`select * from (${summarise(base)}) s order by s.name, s.id`);
  return result.map(toSummary);
}

/** One page of the live organizations picked by `where`, searched by name and sorted (CONTRACT §1). */
export async function pageOrganizationSummaries(
  db: Tx,
  where: SQL,
  query: PaginationQuery<OrganizationSortKey>,
): Promise<{ data: OrganizationSummary[]; total: number }> {
  const filter = sql`o.deleted_at is null and (${where})
    ${query.search.trim() ? sql`and o.name ilike ${containsPattern(query.search)}` : sql``}`;
  const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
  const offset = (query.page - 1) * query.limit;
  const column = COLUMN_KEYS[query.key];
  const [counted] = await rows<{ total: number | string }>(
    db,
    sql`select count(*) as total from organizations o where ${filter}`,
  );
  const total = Number(counted?.total ?? 0);
  if (total === 0 || offset >= total) return { data: [], total };

  let page: SummaryRow[];
  if (column) {
    const base = sql`select * from organizations o where ${filter}
      order by ${column.inner} ${direction}, o.id ${direction} limit ${query.limit} offset ${offset}`;
    page = await rows<SummaryRow>(
      db,
      sql`select * from (${summarise(base)}) s order by ${column.outer} ${direction}, s.id ${direction}`,
    );
  } else {
    const expression = COMPUTED_KEYS[query.key as keyof typeof COMPUTED_KEYS];
    const base = sql`select * from organizations o where ${filter}`;
    page = await rows<SummaryRow>(
      db,
      sql`select * from (${summarise(base)}) s order by ${expression} ${direction}, s.name asc, s.id asc
          limit ${query.limit} offset ${offset}`,
    );
  }
  return { data: page.map(toSummary), total };
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

/** Organizations where the user holds owner or admin directly: the roots of what it sees. */
export async function managedRoots(db: Tx, userId: string): Promise<string[]> {
  const found = await rows<{ organization_id: string }>(
    db,
    sql`select organization_id from memberships
        where user_id = ${userId} and role in ('organization_owner', 'organization_admin')`,
  );
  return found.map((r) => r.organization_id);
}

/**
 * `o` lies in the subtree of one of `roots`. The ids go in as literals so the planner sees how many
 * descendants a root has (a district has tens of thousands) and picks a hash join over the search hits.
 */
export function inSubtreesOf(roots: string[]): SQL {
  if (roots.length === 0) return sql`false`;
  return sql`o.id in (select c.descendant_id from organization_closure c where c.ancestor_id in (${uuidLiterals(roots)}))`;
}

/** Ids from the database written inline (not as parameters), for the planner's statistics. */
export function uuidLiterals(ids: string[]): SQL {
  return sql.join(
    ids.map((id) => sql.raw(`'${id.replace(/[^0-9a-f-]/gi, '')}'::uuid`)),
    sql`, `,
  );
}
