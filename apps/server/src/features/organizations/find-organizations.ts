import type { OrganizationSortKey, SubOrganizationSortKey } from '@allot/domain/organizations';
import { buildPagination, type PaginationQuery } from '@allot/domain/pagination';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import type { ReplicaReads } from '../../db/read-replica';
import type { AuthUser } from '../../http/authenticate';
import { rollUpBeforeRead } from '../insights';
import { accessFromRoles, managedScope, rolesHeldSql, rootCondition } from '../organization-access';
import { allOrganizations, childrenOf, pageOrganizationSummaries, subtreesOf } from './queries';
import { pageSubOrganizationsByDaysLeft, withDaysLeft } from './sub-organizations-days-left';

/**
 * Direct children of an organization, paginated (CONTRACT §4), each with its days left (decision 014, "Days
 * left"): read for the page's rows, or for every child when the list is sorted by it. The days left come from
 * the credit usage roll-up, brought up to date on `db` first; the list is then read where `reads` says, which
 * is asked after that (decision 018).
 */
export async function listSubOrganizations(
  db: Db,
  user: AuthUser,
  id: string,
  query: PaginationQuery<SubOrganizationSortKey>,
  reads: ReplicaReads = async () => db,
) {
  await rollUpBeforeRead(db);
  const from = await reads();
  if (query.key === 'daysLeft') {
    const { data, total, rolesHeld } = await pageSubOrganizationsByDaysLeft(
      from,
      id,
      query,
      rolesHeldSql(user, id),
    );
    accessFromRoles(rolesHeld);
    return { data, pagination: buildPagination(query, total) };
  }
  const { data, total, capped, rolesHeld } = await pageOrganizationSummaries(
    from,
    childrenOf(id),
    { ...query, key: query.key },
    rolesHeldSql(user, id),
  );
  accessFromRoles(rolesHeld);
  return { data: await withDaysLeft(from, data), pagination: buildPagination(query, total, capped) };
}

/**
 * Subtrees of at most this many organizations are searched by checking each of their organizations;
 * larger ones through the search index (decision 002).
 */
const SCOPE_FIRST_MAX_ORGANIZATIONS = 1_000;

/** Organizations anywhere in the caller's subtrees (a system admin: all), paginated. */
export async function searchOrganizations(
  db: Db,
  user: AuthUser,
  query: PaginationQuery<OrganizationSortKey>,
  {
    scopeFirstMaxOrganizations = SCOPE_FIRST_MAX_ORGANIZATIONS,
    wholeRangeMaxEntries,
  }: { scopeFirstMaxOrganizations?: number; wholeRangeMaxEntries?: number } = {},
) {
  let source = allOrganizations();
  let roots: string[] | null = null;
  if (!user.isSystemAdmin) {
    const scope = await managedScope(db, user.userId);
    roots = scope.roots;
    source = subtreesOf(scope.roots, { indexed: scope.organizations > scopeFirstMaxOrganizations });
  }
  const { data, total, capped } = await pageOrganizationSummaries(db, source, query, undefined, {
    wholeRangeMaxEntries,
    path: visiblePath(roots),
  });
  return {
    data: data.map((organization) => ({ ...organization, path: organization.path ?? [] })),
    pagination: buildPagination(query, total, capped),
  };
}

/**
 * The path of the organization `o` as the caller sees it, a JSON column read with the page's summaries (one
 * statement, never one per row): its ancestors from the highest one inside the caller's scope (`roots`, the
 * roots of what it manages; null: a system admin, who sees every ancestor) down to the parent, with their
 * current names. The closure table's (descendant_id, depth) index gives the row's ancestors, and a scope check
 * is a probe of its primary key.
 */
function visiblePath(roots: string[] | null) {
  if (roots?.length === 0) return sql`'[]'::json`;
  const visible =
    roots === null
      ? sql``
      : // `offset 0` keeps the check a probe per ancestor row: as a semi join, the prepared statement's generic
        // plan (from its sixth run) drove it from the whole scope (20,010 closure rows of a district: 0.8 s).
        sql`and exists (select 1 from organization_closure scope
          where scope.descendant_id = up.ancestor_id and ${rootCondition(sql`scope.ancestor_id`, roots)} offset 0)`;
  return sql`(select coalesce(json_agg(json_build_object('id', a.id, 'name', a.name) order by up.depth desc), '[]'::json)
    from organization_closure up join organizations a on a.id = up.ancestor_id
    where up.descendant_id = o.id and up.depth > 0 ${visible})`;
}

/** Ancestors from the root down to the parent. */
export async function getParentOrganizations(db: Db, user: AuthUser, id: string) {
  const [row] = await preparedRows<{ roles: string[]; parents: { id: string; name: string }[] }>(
    db,
    sql`select ${rolesHeldSql(user, id)} as roles,
      (select coalesce(json_agg(json_build_object('id', o.id, 'name', o.name) order by c.depth desc), '[]'::json)
       from organization_closure c join organizations o on o.id = c.ancestor_id
       where c.descendant_id = ${id} and c.depth > 0) as parents`,
  );
  accessFromRoles(row?.roles);
  return row?.parents ?? [];
}

/** The two pools, the credits held by the organization's members, and the pools of its whole subtree below it. */
export async function getOrganizationCredits(db: Db, user: AuthUser, id: string) {
  const [row] = await preparedRows<{
    roles: string[];
    shared: string | number;
    protected: string | number;
    users: string | number;
    sub: string | number;
  }>(
    db,
    // The pools are kept on the organization by the credit journal, the pools below by the roll-up (exact when read).
    sql`select ${rolesHeldSql(user, id)} as roles, o.shared_credits as shared, o.protected_credits as protected, subtree_pool_credits_of(o.id) as sub,
      coalesce((select sum(a.balance) from credit_accounts a where a.kind = 'user' and a.organization_id = o.id), 0) as users
    from organizations o where o.id = ${id}`,
  );
  accessFromRoles(row?.roles);
  return {
    shared: Number(row?.shared ?? 0),
    protected: Number(row?.protected ?? 0),
    users: Number(row?.users ?? 0),
    subOrganizations: Number(row?.sub ?? 0),
  };
}
