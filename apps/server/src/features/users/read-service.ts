import { buildPagination, type PaginationQuery } from '@allot/domain/pagination';
import type { Role } from '@allot/domain/roles';
import type { ORGANIZATION_USER_SORT_KEYS, USER_SEARCH_SORT_KEYS } from '@allot/domain/users';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { containsPattern, rowsForSearch } from '../../lib/search';
import type { AuthUser } from '../auth/sessions';
import { accessFromRoles, rolesHeldSql } from '../organizations/access';
import { managedScope, rootCondition } from '../organizations/queries';
import { type MemberRow, memberColumns, memberJoins, toOrganizationUser } from './queries';

/** Name or email contains the search: the form the trigram indexes serve, for searches over many users. */
const searchFilter = (search: string): SQL =>
  search.trim()
    ? sql`and (u.name ilike ${containsPattern(search)} or u.email ilike ${containsPattern(search)})`
    : sql``;

/**
 * The same test (ILIKE compares the lower-cased texts too), in a form no index serves: for a list read
 * member by member (one organization, a small subtree). Given the choice, the planner, which cannot tell
 * how many of a million users contain 'smith' (it guessed 101; 50,605 do), scanned the trigram index and
 * joined: 63 ms instead of well under 1.
 */
const memberSearchFilter = (search: string): SQL => {
  const text = search.trim();
  return text
    ? sql`and (strpos(lower(u.name), lower(${text})) > 0 or strpos(lower(u.email), lower(${text})) > 0)`
    : sql``;
};

const direction = (order: 'asc' | 'desc') => (order === 'desc' ? sql`desc` : sql`asc`);

/** Members of one organization with their role there, credits and licence seat (needs manage_users). */
export async function listOrganizationUsers(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: PaginationQuery<(typeof ORGANIZATION_USER_SORT_KEYS)[number]>,
) {
  const filter = sql`m.organization_id = ${organizationId} ${memberSearchFilter(query.search)}`;
  const sortBy: Record<typeof query.key, SQL> = {
    name: sql`u.name`,
    email: sql`lower(u.email)`,
    role: sql`case m.role when 'organization_owner' then 1 when 'organization_admin' then 2 else 3 end`,
    credits: sql`coalesce(a.balance, 0)`,
  };
  const dir = direction(query.order);
  // One query: the access check, the total and the page.
  // Member by member: the same plan for every search text, so it stays a prepared statement.
  const [result] = await rowsForSearch(query.search, true)<{
    roles: string[];
    total: string | number;
    data: MemberRow[];
  }>(
    db,
    sql`select ${rolesHeldSql(user, organizationId)} as roles,
      (select count(*) from memberships m join users u on u.id = m.user_id where ${filter}) as total,
      (select coalesce(json_agg(p order by p.sort_key ${dir}, p.id), '[]'::json) from (
        select ${memberColumns}, ${sortBy[query.key]} as sort_key from memberships m ${memberJoins}
        where ${filter} order by sort_key ${dir}, u.id
        limit ${query.limit} offset ${(query.page - 1) * query.limit}) p) as data`,
  );
  accessFromRoles(result?.roles, ['manage_users']);
  return {
    data: (result?.data ?? []).map(toOrganizationUser),
    pagination: buildPagination(query, Number(result?.total ?? 0)),
  };
}

/** A subtree of at most this many organizations is read member by member when searched (see below). */
const SCOPE_FIRST_MAX_ORGANIZATIONS = 1_000;

/**
 * Users who belong to an organization in the caller's subtrees (a system admin: every user), each with
 * the visible organizations they belong to. One query: the matching users once, counted, the page cut.
 */
export async function searchUsers(
  db: Db,
  user: AuthUser,
  query: PaginationQuery<(typeof USER_SEARCH_SORT_KEYS)[number]>,
  { scopeFirstMaxOrganizations = SCOPE_FIRST_MAX_ORGANIZATIONS } = {},
) {
  // The organizations where the caller is owner or admin: their subtrees are what it sees.
  const scope = user.isSystemAdmin ? null : await managedScope(db, user.userId);
  if (scope && scope.roots.length === 0) return { data: [], pagination: buildPagination(query, 0) };
  const inScope = (membership: SQL) =>
    scope
      ? sql`exists (select 1 from organization_closure c
            where c.descendant_id = ${membership} and ${rootCondition(sql`c.ancestor_id`, scope.roots)})`
      : sql`true`;
  // Start from the smaller side. A small subtree (a school) reads its members and filters them; a large
  // one (a district) asks the trigram indexes for candidates first and checks each against the scope
  // (OFFSET 0 keeps that a per-candidate index probe instead of a join over every membership).
  let matches: SQL;
  // Read member by member, the plan does not depend on the search text: it may stay a prepared statement.
  let memberByMember = false;
  if (!scope) {
    matches = sql`select u.id, u.name, u.email from users u where true ${searchFilter(query.search)}`;
  } else if (!query.search.trim() || scope.organizations <= scopeFirstMaxOrganizations) {
    memberByMember = true;
    matches = sql`select u.id, u.name, u.email from (
        select distinct m.user_id from organization_closure c
        join memberships m on m.organization_id = c.descendant_id
        where ${rootCondition(sql`c.ancestor_id`, scope.roots)} offset 0) members
      join users u on u.id = members.user_id where true ${memberSearchFilter(query.search)}`;
  } else {
    matches = sql`select u.id, u.name, u.email from users u where true ${searchFilter(query.search)}
      and exists (select 1 from memberships m where m.user_id = u.id and ${inScope(sql`m.organization_id`)} offset 0)`;
  }
  const dir = direction(query.order);
  const sortBy = (alias: string) =>
    query.key === 'email' ? sql`lower(${sql.raw(alias)}.email) ${dir}` : sql`${sql.raw(alias)}.name ${dir}`;
  const [result] = await rowsForSearch(query.search, memberByMember)<{
    total: string | number;
    data: {
      id: string;
      name: string;
      email: string;
      organizations: { id: string; name: string; role: Role }[];
    }[];
  }>(
    db,
    sql`with matches as materialized (${matches})
        select (select count(*) from matches) as total,
          (select coalesce(json_agg(p order by ${sortBy('p')}, p.id), '[]'::json) from (
            select s.id, s.name, s.email,
              (select coalesce(json_agg(json_build_object('id', o.id, 'name', o.name, 'role', m.role) order by o.name), '[]'::json)
               from memberships m join organizations o on o.id = m.organization_id
               where m.user_id = s.id and ${inScope(sql`m.organization_id`)}) as organizations
            from (select * from matches order by ${sortBy('matches')}, id
                  limit ${query.limit} offset ${(query.page - 1) * query.limit}) s) p) as data`,
  );
  return {
    data: result?.data ?? [],
    pagination: buildPagination(query, Number(result?.total ?? 0)),
  };
}
