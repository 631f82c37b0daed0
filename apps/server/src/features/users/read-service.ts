import { buildPagination, type PaginationQuery } from '@allot/domain/pagination';
import type { Role } from '@allot/domain/roles';
import type { ORGANIZATION_USER_SORT_KEYS, USER_SEARCH_SORT_KEYS } from '@allot/domain/users';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import type { AuthUser } from '../../http/authenticate';
import { containsPattern, rowsForSearch } from '../../lib/search';
import { accessFromRoles, rolesHeldSql } from '../organization-access/access';
import { inSubtreesSql, managedScopeSql, organizationsInSubtreesSql } from '../organization-access/scope';
import { type PersonRow, peopleOf, personColumns, personJoins, toOrganizationUser } from './queries';

/** Name or email contains the search: the form the trigram indexes serve, for searches over many users. */
const searchFilter = (search: string): SQL =>
  search.trim()
    ? sql`and (u.name ilike ${containsPattern(search)} or u.email ilike ${containsPattern(search)})`
    : sql``;

/**
 * The same test (ILIKE compares the lower-cased texts too), in a form no index serves: for a list read
 * member by member (one organization, a small subtree). Given the choice, the planner, which cannot tell
 * how many of a million users contain 'smith' (it guessed 101; 50,605 do), scanned the trigram index and
 * joined: 63 ms instead of well under 1. `alias` names the relation with `name` and `email`.
 */
const memberSearchFilter = (search: string, alias = 'u'): SQL => {
  const text = search.trim();
  const a = sql.raw(alias);
  return text
    ? sql`and (strpos(lower(${a}.name), lower(${text})) > 0 or strpos(lower(${a}.email), lower(${text})) > 0)`
    : sql``;
};

const direction = (order: 'asc' | 'desc') => (order === 'desc' ? sql`desc` : sql`asc`);

/**
 * Members of one organization with their role there, credits and licence seat, and the accounts invited to
 * it (`status: pending`), needs manage_users.
 */
export async function listOrganizationUsers(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: PaginationQuery<(typeof ORGANIZATION_USER_SORT_KEYS)[number]>,
) {
  const people = peopleOf(organizationId);
  const filter = memberSearchFilter(query.search, 'p');
  const sortBy: Record<typeof query.key, SQL> = {
    name: sql`p.name`,
    email: sql`lower(p.email)`,
    role: sql`case p.role when 'organization_owner' then 1 when 'organization_admin' then 2 else 3 end`,
    credits: sql`p.credits`,
  };
  const dir = direction(query.order);
  // One query: the access check, the total and the page. Read member by member, the plan is the same for
  // every search text, so it stays a prepared statement.
  const [result] = await preparedRows<{
    roles: string[];
    total: string | number;
    data: PersonRow[];
  }>(
    db,
    sql`select ${rolesHeldSql(user, organizationId)} as roles,
      (select count(*) from ${people} p where true ${filter}) as total,
      (select coalesce(json_agg(x order by x.sort_key ${dir}, x.id), '[]'::json) from (
        select ${personColumns}, ${sortBy[query.key]} as sort_key from ${people} p ${personJoins}
        where true ${filter} order by sort_key ${dir}, p.id
        limit ${query.limit} offset ${(query.page - 1) * query.limit}) x) as data`,
  );
  accessFromRoles(result?.roles, ['manage_users']);
  return {
    data: (result?.data ?? []).map(toOrganizationUser),
    pagination: buildPagination(query, Number(result?.total ?? 0)),
  };
}

/** A subtree of at most this many organizations is read member by member when searched (see below). */
const SCOPE_FIRST_MAX_ORGANIZATIONS = 1_000;

type ScopeFacts = { small: boolean | null; roots: string[] | null };
type UserSearchResult = {
  total: string | number;
  data: {
    id: string;
    name: string;
    email: string;
    organizations: { id: string; name: string; role: Role }[];
  }[];
};

/**
 * Users who belong to an organization in the caller's subtrees (a system admin: every user), each with
 * the visible organizations they belong to. The matching users are found once, counted, and the page cut.
 *
 * Start from the smaller side. A small subtree (a school, a network) or a list without search text reads its
 * members and filters them: one query, the caller's scope included. A large subtree searched (a district)
 * asks the trigram indexes for candidates first and checks each against the scope.
 */
export async function searchUsers(
  db: Db,
  user: AuthUser,
  query: PaginationQuery<(typeof USER_SEARCH_SORT_KEYS)[number]>,
  { scopeFirstMaxOrganizations = SCOPE_FIRST_MAX_ORGANIZATIONS } = {},
) {
  const answer = (result: UserSearchResult | undefined) => ({
    data: result?.data ?? [],
    pagination: buildPagination(query, Number(result?.total ?? 0)),
  });
  if (user.isSystemAdmin) {
    const matches = sql`select u.id, u.name, u.email from users u where true ${searchFilter(query.search)}`;
    return answer(await pageOfMatches(db, query, matches, () => sql`true`, false));
  }
  // The organizations where the caller is owner or admin (CTE `scope`): their subtrees are what it sees.
  const scopeRoots = sql`select organization_id from scope`;
  const inScope = (membership: SQL) => inSubtreesSql(membership, scopeRoots);
  const sizeLimit = query.search.trim() ? scopeFirstMaxOrganizations : null;
  const members = sql`select u.id, u.name, u.email from (
      select distinct m.user_id from (${organizationsInSubtreesSql(scopeRoots)}) s
      join memberships m on m.organization_id = s.organization_id
      where (select small from scope_size) offset 0) members
    join users u on u.id = members.user_id where true ${memberSearchFilter(query.search)}`;
  // Member by member, the plan does not depend on the search text: it stays a prepared statement.
  const memberByMember = await pageOfMatches(db, query, members, inScope, true, {
    prefix: sql`scope as materialized (${managedScopeSql(user.userId)}),
      scope_size as materialized (
        select ${sizeLimit}::bigint is null or coalesce(sum(size), 0) <= ${sizeLimit}::bigint as small from scope),`,
    small: sql`(select small from scope_size)`,
    roots: sql`(select array_agg(organization_id) from scope)`,
  });
  if (memberByMember.small !== false) return answer(memberByMember);

  // A large subtree, searched: candidates from the trigram indexes, each checked against the scope with an
  // index probe (OFFSET 0 keeps it one, instead of a join over every membership). The roots are passed as
  // values, so that the search is planned for the size of their subtrees.
  const roots = memberByMember.roots ?? [];
  const inRoots = (membership: SQL) => inSubtreesSql(membership, roots);
  const candidates = sql`select u.id, u.name, u.email from users u where true ${searchFilter(query.search)}
    and exists (select 1 from memberships m where m.user_id = u.id and ${inRoots(sql`m.organization_id`)} offset 0)`;
  return answer(await pageOfMatches(db, query, candidates, inRoots, false));
}

/**
 * The total of `matches` (users `id, name, email`) and its page, each user with its organizations that pass
 * `visible`. `extra`: more CTEs before `matches`, and two more columns to answer: whether the scope was
 * small enough to read member by member, and its roots.
 */
async function pageOfMatches(
  db: Db,
  query: PaginationQuery<(typeof USER_SEARCH_SORT_KEYS)[number]>,
  matches: SQL,
  visible: (membership: SQL) => SQL,
  prepared: boolean,
  extra: { prefix: SQL; small: SQL; roots: SQL } = { prefix: sql``, small: sql`null`, roots: sql`null` },
): Promise<UserSearchResult & ScopeFacts> {
  const dir = direction(query.order);
  const sortBy = (alias: string) =>
    query.key === 'email' ? sql`lower(${sql.raw(alias)}.email) ${dir}` : sql`${sql.raw(alias)}.name ${dir}`;
  const [result] = await rowsForSearch(query.search, prepared)<UserSearchResult & ScopeFacts>(
    db,
    sql`with ${extra.prefix} matches as materialized (${matches})
        select ${extra.small} as small, ${extra.roots} as roots, (select count(*) from matches) as total,
          (select coalesce(json_agg(p order by ${sortBy('p')}, p.id), '[]'::json) from (
            select s.id, s.name, s.email,
              (select coalesce(json_agg(json_build_object('id', o.id, 'name', o.name, 'role', m.role) order by o.name), '[]'::json)
               from memberships m join organizations o on o.id = m.organization_id
               where m.user_id = s.id and ${visible(sql`m.organization_id`)}) as organizations
            from (select * from matches order by ${sortBy('matches')}, id
                  limit ${query.limit} offset ${(query.page - 1) * query.limit}) s) p) as data`,
  );
  return {
    total: result?.total ?? 0,
    data: result?.data ?? [],
    small: result?.small ?? null,
    roots: result?.roots ?? null,
  };
}
