import type { OrganizationSortKey } from '@allot/domain/organizations';
import { buildPagination, type PaginationQuery } from '@allot/domain/pagination';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import type { AuthUser } from '../../http/authenticate';
import { accessFromRoles, rolesHeldSql } from '../organization-access/access';
import { managedScope } from '../organization-access/scope';
import { allOrganizations, childrenOf, pageOrganizationSummaries, subtreesOf } from './queries';

/** Direct children of an organization, paginated (CONTRACT §4). */
export async function listSubOrganizations(
  db: Db,
  user: AuthUser,
  id: string,
  query: PaginationQuery<OrganizationSortKey>,
) {
  const { data, total, capped, rolesHeld } = await pageOrganizationSummaries(
    db,
    childrenOf(id),
    query,
    rolesHeldSql(user, id),
  );
  accessFromRoles(rolesHeld);
  return { data, pagination: buildPagination(query, total, capped) };
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
  { scopeFirstMaxOrganizations = SCOPE_FIRST_MAX_ORGANIZATIONS } = {},
) {
  let source = allOrganizations();
  if (!user.isSystemAdmin) {
    const scope = await managedScope(db, user.userId);
    source = subtreesOf(scope.roots, { indexed: scope.organizations > scopeFirstMaxOrganizations });
  }
  const { data, total, capped } = await pageOrganizationSummaries(db, source, query);
  return { data, pagination: buildPagination(query, total, capped) };
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
    // The pools and the pools below are kept on the organization by the credit journal.
    sql`select ${rolesHeldSql(user, id)} as roles, o.shared_credits as shared, o.protected_credits as protected, o.subtree_credits as sub,
      coalesce((select sum(a.balance) from memberships m join credit_accounts a on a.user_id = m.user_id
                where m.organization_id = o.id), 0) as users
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
