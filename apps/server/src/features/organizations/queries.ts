import {
  LICENSE_EXPIRING_SOON_DAYS,
  type LicenseType,
  type OrganizationSortKey,
  type OrganizationSummary,
  type OrganizationType,
} from '@allot/domain/organizations';
import type { PaginationQuery } from '@allot/domain/pagination';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import { containsPattern, rowsForSearch } from '../../lib/search';
import { rootCondition } from '../organization-access/scope';

export type SummaryRow = {
  id: string;
  name: string;
  type: string;
  phone_number: string;
  parent_id: string | null;
  admin_name: string | null;
  admin_email: string | null;
  users_count: number | string;
  sub_organizations_count: number | string;
  shared_credits: number | string;
  protected_credits: number | string;
  expiring_license_type: string | null;
  expiring_license_expire_at: string | null;
};

/**
 * The summary columns of CONTRACT §4 for each row of `base` (a relation of organizations named `o`).
 * The counts are kept by triggers (migration 0006), the pools by the credit journal; the owner is an
 * index probe per row: the member who owns it, else the account invited to own it, as the inviter typed it
 * (CONTRACT §3: nothing of the account before it accepts). The licence expiring soon (decision 009, "Expiry
 * reminders") is another probe per row, on the licences' (organization_id, license_type) index: at most one
 * row per type.
 */
function summarise(base: SQL) {
  return sql`
    select o.id, o.name, o.type, o.phone_number, o.parent_id, o.created_at, o.users_count, o.sub_organizations_count,
      owner.name as admin_name, owner.email as admin_email,
      o.shared_credits, o.protected_credits,
      expiring.license_type as expiring_license_type, expiring.expire_at as expiring_license_expire_at
    from (${base}) o
    left join lateral (
      select u.name, u.email from memberships om join users u on u.id = om.user_id
      where om.organization_id = o.id and om.role = 'organization_owner'
      union all
      select i.invited_name, i.invited_email from membership_invitations i
      where i.organization_id = o.id and i.role = 'organization_owner'
      limit 1
    ) owner on true
    left join lateral (
      select l.license_type, l.expire_at from licenses l
      where l.organization_id = o.id and l.expire_at > now()
        and l.expire_at <= now() + ${LICENSE_EXPIRING_SOON_DAYS}::int * interval '1 day'
        and (l.source_license_id is null or l.max_users > 0)
      order by l.expire_at, l.license_type limit 1
    ) expiring on true`;
}

/**
 * The summaries of the live organizations picked by `where` (over `o`), by name, as a JSON array (to embed in
 * a larger read; `toSummary` maps its elements).
 */
export function organizationSummariesJson(where: SQL, options: { limit?: number } = {}): SQL {
  const base = sql`select * from organizations o where o.deleted_at is null and (${where})
    order by o.name, o.id ${options.limit === undefined ? sql`` : sql`limit ${options.limit}`}`;
  return sql`(select coalesce(json_agg(s order by s.name, s.id), '[]'::json) from (${summarise(base)}) s)`;
}

/** Summaries of the live organizations picked by `where` (over `o`), by name. */
export async function selectOrganizationSummaries(db: Tx, where: SQL, options: { limit?: number } = {}) {
  const [row] = await preparedRows<{ summaries: SummaryRow[] }>(
    db,
    sql`select ${organizationSummariesJson(where, options)} as summaries`,
  );
  return (row?.summaries ?? []).map(toSummary);
}

/**
 * Where a paginated list of organizations comes from. `from` is a FROM … WHERE … clause giving live
 * organizations as `o`; `hits` is the cheapest FROM … WHERE … that yields the same rows' `id` and
 * `name` (on the closure table, its own copies: its indexes serve both the name order and the search);
 * `total`, when set, counts the unsearched list without scanning it.
 */
export interface OrganizationSource {
  from: SQL;
  hits: SQL;
  id: SQL;
  name: SQL;
  total?: SQL;
  /** The condition "the name contains the search", given its ILIKE-style pattern (`containsPattern`). */
  nameContains: (pattern: string) => SQL;
  /**
   * Searched, it still reads at most one parent's children whatever the plan, so a searched list may stay
   * a prepared statement (checked: eight alternating searches on one connection kept to a few ms).
   */
  boundedSearch?: boolean;
}

/** Direct children of an organization. */
export function childrenOf(parentId: string): OrganizationSource {
  const from = sql`from organizations o where o.parent_id = ${parentId} and o.deleted_at is null`;
  return {
    from,
    hits: from,
    id: sql`o.id`,
    name: sql`o.name`,
    total: sql`select sub_organizations_count from organizations where id = ${parentId}`,
    nameContains: (pattern) => sql`o.name ilike ${pattern}`,
    boundedSearch: true,
  };
}

/** Every live organization (a system admin's search). */
export function allOrganizations(): OrganizationSource {
  const from = sql`from organizations o where o.deleted_at is null`;
  return {
    from,
    hits: from,
    id: sql`o.id`,
    name: sql`o.name`,
    total: sql`select coalesce(sum(descendants_count + 1), 0) from organizations
               where parent_id is null and deleted_at is null`,
    nameContains: (pattern) => sql`o.name ilike ${pattern}`,
  };
}

/**
 * The subtrees of `roots` (none inside another: see `managedScope`, organization-access/scope.ts), themselves
 * included. Only live organizations have ancestry rows (a delete removes them).
 */
export function subtreesOf(roots: string[]): OrganizationSource {
  if (roots.length === 0) {
    const none = sql`from organizations o where false`;
    return {
      from: none,
      hits: none,
      id: sql`o.id`,
      name: sql`o.name`,
      total: sql`select 0`,
      nameContains: () => sql`false`,
    };
  }
  const isUnder = rootCondition(sql`c.ancestor_id`, roots);
  return {
    from: sql`from organization_closure c join organizations o on o.id = c.descendant_id where ${isUnder}`,
    hits: sql`from organization_closure c where ${isUnder}`,
    id: sql`c.descendant_id`,
    name: sql`c.name`,
    total: sql`select coalesce(sum(descendants_count + 1), 0) from organizations where ${rootCondition(sql`id`, roots)}`,
    // The lower-case copy and its trigram index (schema.ts: organization_closure.search_name).
    nameContains: (pattern) => sql`c.search_name like lower(${pattern})`,
  };
}

const SORT_COLUMNS: Record<Exclude<OrganizationSortKey, 'name' | 'credits'>, string> = {
  type: 'type',
  createdAt: 'created_at',
  usersCount: 'users_count',
  subOrganizationsCount: 'sub_organizations_count',
};

/** The value a list is sorted by (other than name), over organizations or their summary rows named `alias`. */
function sortValue(alias: 'o' | 'p', key: Exclude<OrganizationSortKey, 'name'>): string {
  if (key === 'credits') return `(${alias}.shared_credits + ${alias}.protected_credits)`;
  return `${alias}.${SORT_COLUMNS[key]}`;
}

/**
 * One page of a list of organizations, searched by name and sorted (CONTRACT §1), and its total: one
 * query. Unsearched, the page is read in index order and the total comes from the counters; searched,
 * the matches are found first (trigram indexes), counted, and the page is cut from them. Either way the
 * owner is looked up for the page's rows only. Ties are broken by name and id (ascending under credits).
 */
export async function pageOrganizationSummaries(
  db: Tx,
  source: OrganizationSource,
  query: PaginationQuery<OrganizationSortKey>,
  /** Also selects these roles (`rolesHeldSql`), so that the access check rides on the same query. */
  rolesHeld: SQL = sql`null`,
): Promise<{ data: OrganizationSummary[]; total: number; rolesHeld: string[] | null }> {
  const search = query.search.trim();
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  const tieDir = query.key === 'credits' ? sql`asc` : dir;
  const window = sql`limit ${query.limit} offset ${(query.page - 1) * query.limit}`;
  const sortBy = query.key === 'name' ? null : sql.raw(sortValue('o', query.key));

  let prefix = sql``;
  let total: SQL;
  let base: SQL; // the page's organizations, as `o`
  if (search) {
    // A materialized CTE: the matches come from the trigram index, never from walking the name order.
    prefix = sql`with hits as materialized (
      select ${source.id} as id, ${source.name} as name ${source.hits}
        and ${source.nameContains(containsPattern(search))})`;
    total = sql`select count(*) from hits`;
    base = sortBy
      ? sql`select o.* from hits h join organizations o on o.id = h.id
            order by ${sortBy} ${dir}, h.name ${tieDir}, h.id ${tieDir} ${window}`
      : sql`select o.* from (select * from hits order by name ${dir}, id ${dir} ${window}) h
            join organizations o on o.id = h.id`;
  } else {
    total = source.total ?? sql`select count(*) ${source.hits}`;
    base = sql`select o.* ${source.from}
      order by ${sortBy ? sql`${sortBy} ${dir},` : sql``} ${source.name} ${tieDir}, ${source.id} ${tieDir} ${window}`;
  }
  const [result] = await rowsForSearch(search, source.boundedSearch)<{
    total: number | string | null;
    data: SummaryRow[] | null;
    roles: string[] | null;
  }>(
    db,
    sql`${prefix}
        select ${rolesHeld} as roles, (${total}) as total,
          (select coalesce(json_agg(p order by ${pageOrder(query.key, query.order)}), '[]'::json)
           from (${summarise(base)}) p) as data`,
  );
  return {
    data: (result?.data ?? []).map(toSummary),
    total: Number(result?.total ?? 0),
    rolesHeld: result?.roles ?? null,
  };
}

/** The page's order again over its summary rows `p`: the sort key, then name and id. */
function pageOrder(key: OrganizationSortKey, order: 'asc' | 'desc'): SQL {
  if (key === 'name') return sql.raw(`p.name ${order}, p.id ${order}`);
  const tie = key === 'credits' ? 'asc' : order;
  return sql.raw(`${sortValue('p', key)} ${order}, p.name ${tie}, p.id ${tie}`);
}

export function toSummary(row: SummaryRow): OrganizationSummary {
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
    credits: { shared: Number(row.shared_credits), protected: Number(row.protected_credits) },
    ...(row.expiring_license_type && row.expiring_license_expire_at
      ? {
          licenseExpiringSoon: {
            licenseType: row.expiring_license_type as LicenseType,
            expireAt: new Date(row.expiring_license_expire_at).toISOString(),
          },
        }
      : {}),
  };
}
