import { buildPagination, type PaginationQuery, SEARCH_TOTAL_CAP } from '@allot/domain/pagination';
import type { Role } from '@allot/domain/roles';
import type { ORGANIZATION_USER_SORT_KEYS, USER_SEARCH_SORT_KEYS, UserListScope } from '@allot/domain/users';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { preparedRows } from '../../db/prepared-rows';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import {
  cappedFromExact,
  findsNothing,
  inWordRange,
  matchesTerms,
  NIL_SCOPE,
  plainWords,
  SEARCH_COUNT_LIMIT,
  searchQuery,
  searchTerms,
  singleWord,
  wordPrefix,
} from '../../lib/search';
import { byEstimatedRange, readsRangeWhole, WHOLE_RANGE_MAX_ENTRIES } from '../../lib/word-frequency';
import {
  accessFromRoles,
  inSubtreesSql,
  managedScopeSql,
  organizationsInSubtreesSql,
  rolesHeldSql,
} from '../organization-access';
import {
  type PersonRow,
  peopleOf,
  peopleOfSubtree,
  personColumns,
  personJoins,
  toOrganizationUser,
} from './queries';

const direction = (order: 'asc' | 'desc') => (order === 'desc' ? sql`desc` : sql`asc`);

/**
 * Members of one organization with their role there, credits and licence seat, and the accounts invited to
 * it (`status: pending`), needs manage_users. With `scope: 'subtree'` (CONTRACT §6), everyone in it and below,
 * each with their organization; `manage_users` on the organization reaches every one below it.
 */
export async function listOrganizationUsers(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: PaginationQuery<(typeof ORGANIZATION_USER_SORT_KEYS)[number]> & {
    scope?: UserListScope;
    organizationId?: string | undefined;
  },
) {
  const subtree = query.scope === 'subtree';
  // `organizationId` narrows a subtree list to one organization of it: one that is not in it leaves the list
  // empty, as a filter that matches nobody; one that is no id at all names nothing (`404`, as everywhere).
  const only = subtree && query.organizationId !== undefined ? query.organizationId.toLowerCase() : null;
  if (only !== null && !isUuid(only)) throw AppError.notFound();
  const people = subtree ? peopleOfSubtree(organizationId, only) : peopleOf(organizationId);
  const subtreeColumns = subtree ? sql`, p.organization_id, p.organization_name` : sql``;
  const terms = searchTerms(query.search);
  const filter = findsNothing(terms)
    ? sql`and false`
    : sql`and ${matchesTerms(sql`p.search_text`, terms, 'user')}`;
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
        select ${personColumns}${subtreeColumns}, ${sortBy[query.key]} as sort_key from ${people} p ${personJoins}
        where true ${filter} order by sort_key ${dir}, p.id${subtree ? sql`, p.organization_name, p.organization_id` : sql``}
        limit ${query.limit} offset ${(query.page - 1) * query.limit}) x) as data`,
  );
  accessFromRoles(result?.roles, ['manage_users']);
  const total = Number(result?.total ?? 0);
  return {
    data: (result?.data ?? []).map(toOrganizationUser),
    pagination: buildPagination(query, total, terms.length > 0 ? cappedFromExact(total, query) : undefined),
  };
}

/** A subtree of at most this many organizations is read member by member when searched (see below). */
const SCOPE_FIRST_MAX_ORGANIZATIONS = 1_000;

type UserRow = {
  id: string;
  name: string;
  email: string;
  organizations: { id: string; name: string; role: Role }[];
};
/** A root of the caller's scope and the top-level organization above it (itself, for a top-level one). */
type ScopeRoot = { id: string; top: string };
type UserSort = PaginationQuery<(typeof USER_SEARCH_SORT_KEYS)[number]>;

/**
 * Users who belong to an organization in the caller's subtrees (a system admin: every user), each with
 * the visible organizations they belong to.
 *
 * Start from the smaller side. A small subtree (a school, a network) or a list without search text reads its
 * members and checks each: one query, the caller's scope included, counted exactly. A large subtree
 * searched (a district), and a system admin's search, go through the search index (`user_search`, one row
 * per user and top-level organization): see `indexedUserPage`.
 */
export async function searchUsers(
  db: Db,
  user: AuthUser,
  query: UserSort,
  {
    scopeFirstMaxOrganizations = SCOPE_FIRST_MAX_ORGANIZATIONS,
    wholeRangeMaxEntries = WHOLE_RANGE_MAX_ENTRIES,
  } = {},
) {
  const terms = searchTerms(query.search);
  if (findsNothing(terms)) return { data: [], pagination: buildPagination(query, 0) };
  if (user.isSystemAdmin) {
    if (terms.length > 0) return indexedUserPage(db, query, terms, 'all', wholeRangeMaxEntries);
    const everyone = sql`select u.id, u.name, u.email from users u`;
    const result = await pageOfMatches(db, query, everyone, () => sql`true`);
    return { data: result.data, pagination: buildPagination(query, Number(result.total)) };
  }
  // The organizations where the caller is owner or admin (CTE `scope`): their subtrees are what it sees.
  const scopeRoots = sql`select organization_id from scope`;
  const inScope = (membership: SQL) => inSubtreesSql(membership, scopeRoots);
  const sizeLimit = terms.length > 0 ? scopeFirstMaxOrganizations : null;
  const members = sql`select u.id, u.name, u.email from (
      select distinct m.user_id from (${organizationsInSubtreesSql(scopeRoots)}) s
      join memberships m on m.organization_id = s.organization_id
      where (select small from scope_size) offset 0) members
    join users u on u.id = members.user_id where ${matchesTerms(sql`u.search_text`, terms, 'user')}`;
  // Member by member, the plan does not depend on the search text: it stays a prepared statement.
  const memberByMember = await pageOfMatches(db, query, members, inScope, {
    prefix: sql`scope as materialized (${managedScopeSql(user.userId)}),
      scope_size as materialized (
        select ${sizeLimit}::bigint is null or coalesce(sum(size), 0) <= ${sizeLimit}::bigint as small from scope),`,
    small: sql`(select small from scope_size)`,
    roots: sql`(select json_agg(json_build_object('id', s.organization_id, 'top', (
        select c.ancestor_id from organization_closure c join organizations r on r.id = c.ancestor_id
        where c.descendant_id = s.organization_id and r.parent_id is null))) from scope s)`,
  });
  if (memberByMember.small !== false) {
    const total = Number(memberByMember.total);
    return {
      data: memberByMember.data,
      pagination: buildPagination(query, total, terms.length > 0 ? cappedFromExact(total, query) : undefined),
    };
  }
  return indexedUserPage(db, query, terms, memberByMember.roots ?? [], wholeRangeMaxEntries);
}

/**
 * A search through `user_search`, in the scope of each root (its top-level organization's rows; below the
 * top, also "is a member somewhere under the root", one index probe). The GIN index gives at most
 * `SEARCH_COUNT_LIMIT` matches per root: up to the cap they are all there, counted exactly, and the page is
 * cut from them. Beyond it the total is capped, and the page comes from walking the scope's name (or email)
 * index, checking each entry, until the page and one more row are found: a common word fills it quickly.
 * Several roots: each is searched and walked, and the answers merged (a user in two is counted once).
 */
async function indexedUserPage(
  db: Db,
  query: UserSort,
  terms: string[],
  roots: ScopeRoot[] | 'all',
  wholeRangeMaxEntries: number,
) {
  const scopes: ScopeRoot[] = roots === 'all' ? [{ id: NIL_SCOPE, top: NIL_SCOPE }] : roots;
  const visible =
    roots === 'all'
      ? () => sql`true`
      : (membership: SQL) =>
          inSubtreesSql(
            membership,
            roots.map((r) => r.id),
          );
  const dir = direction(query.order);
  const sortColumn = sql.raw(query.key === 'email' ? 'email_key' : 'name');
  const offset = (query.page - 1) * query.limit;
  const matches = matchesTerms(sql`s.search_text`, terms, 'user', { planned: true });
  const under = (root: ScopeRoot, alias = 's') =>
    root.id === root.top
      ? sql``
      : sql`and exists (select 1 from memberships m join organization_closure c on c.descendant_id = m.organization_id
              where m.user_id = ${sql.raw(alias)}.user_id and c.ancestor_id = ${root.id}::uuid)`;
  const each = (part: (root: ScopeRoot) => SQL) =>
    sql.join(
      scopes.map((root) => sql`(${part(root)})`),
      sql` union all `,
    );
  // The GIN halves (no plain word among the terms) are kept apart (OFFSET 0): planned on their own, they
  // cannot become a walk with a filter.
  const inIndex = (root: ScopeRoot) => sql`s.search_vector @@ ${searchQuery(root.top, terms)}`;
  // One word: a range of the btree of words, read from the index alone (decision 002).
  const word = singleWord(terms);
  // Several terms with a plain word among them: the range of the one with the smallest range (estimated),
  // every term checked in the entry's marked text (migration 0037).
  const [rangeWord] = byEstimatedRange(db, 'user_search_words', plainWords(terms));
  /** The matches, at most `limit` of them from each root (null: all). */
  const hitsUpTo = (limit: number | null) => {
    const limitBy = limit === null ? sql`` : sql`limit ${limit}`;
    return each((root) =>
      word
        ? sql`select w.user_id as id, w.${sortColumn} as sort_value from user_search_words w
          where w.scope_id = ${root.top}::uuid and ${wordPrefix(word)} ${under(root, 'w')}
          ${limitBy}`
        : rangeWord
          ? sql`${inWordRange(
              'user_search_words',
              sql`${root.top}::uuid`,
              rangeWord,
              sql`select w.user_id as id, w.${sortColumn} as sort_value`,
              sql`${matchesTerms(sql`w.search_text`, terms, 'user', { planned: true })} ${under(root, 'w')}`,
            )} ${limitBy}`
          : sql`select s.user_id as id, s.${sortColumn} as sort_value from (
          select * from user_search s where ${inIndex(root)} offset 0) s
        where s.scope_id = ${root.top}::uuid and ${matches} ${under(root)} ${limitBy}`,
    );
  };
  const wholeRange = readsRangeWhole(
    'user_search_words',
    scopes.map((root) => root.top),
    terms,
    rangeWord,
    wholeRangeMaxEntries,
  );
  // The walk reads only what the name (or email) index holds, so the table is not read.
  const walk = each(
    (root) => sql`select s.user_id as id, s.${sortColumn} as sort_value from user_search s
      where s.scope_id = ${root.top}::uuid and ${matches} ${under(root)}
      order by s.${sortColumn} ${dir}, s.user_id limit ${offset + query.limit + 1}`,
  );
  // The page's ids in order (one more row past a capped total, for `hasNext`). Only the search is
  // planned per call: planning the page's joins too cost more than running the search (decision 002).
  const pageIds = (found: SQL, rowCount: number) => sql`(
    select coalesce(json_agg(f.id order by f.sort_value ${dir}, f.id), '[]'::json) from (
      select distinct id, sort_value from (${found}) x
      order by x.sort_value ${dir}, x.id limit ${rowCount} offset ${offset}) f)`;
  const [result] = await rows<{ total: string | number; ids: string[] }>(
    db,
    sql`with hits as materialized (${hitsUpTo(SEARCH_COUNT_LIMIT)}),
        counted as materialized (select count(distinct id) as n from hits)
      select (select n from counted) as total,
        case when (select n from counted) <= ${SEARCH_TOTAL_CAP}
          then ${pageIds(sql`select * from hits`, query.limit)}
          else ${pageIds(wholeRange ? hitsUpTo(null) : walk, query.limit + 1)} end as ids`,
  );
  const total = Number(result?.total ?? 0);
  const ids = result?.ids ?? [];
  const capped = total > SEARCH_TOTAL_CAP ? { hasNext: ids.length > query.limit } : undefined;
  const found = await usersWithOrganizations(db, ids.slice(0, query.limit), visible);
  return { data: found, pagination: buildPagination(query, total, capped) };
}

/** The organizations of the user `userId` (a column) that pass `visible`, with its role there, by name. */
function organizationsOfUser(userId: SQL, visible: (membership: SQL) => SQL): SQL {
  return sql`(select coalesce(json_agg(json_build_object('id', o.id, 'name', o.name, 'role', m.role) order by o.name), '[]'::json)
    from memberships m join organizations o on o.id = m.organization_id
    where m.user_id = ${userId} and ${visible(sql`m.organization_id`)})`;
}

/** These users, in this order, each with its organizations that pass `visible`: a prepared statement. */
async function usersWithOrganizations(
  db: Db,
  ids: readonly string[],
  visible: (membership: SQL) => SQL,
): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  const found = await preparedRows<UserRow>(
    db,
    sql`select u.id, u.name, u.email, ${organizationsOfUser(sql`u.id`, visible)} as organizations
      from users u where u.id in ${uuidsIn(ids)}`,
  );
  const byId = new Map(found.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The total of `matches` (users `id, name, email`) and its page, each user with its organizations that pass
 * `visible`; a prepared statement. `extra`: more CTEs before `matches`, and two more columns to answer:
 * whether the scope was small enough to read member by member, and its roots.
 */
async function pageOfMatches(
  db: Db,
  query: UserSort,
  matches: SQL,
  visible: (membership: SQL) => SQL,
  extra: { prefix: SQL; small: SQL; roots: SQL } = { prefix: sql``, small: sql`null`, roots: sql`null` },
): Promise<{ total: string | number; data: UserRow[]; small: boolean | null; roots: ScopeRoot[] | null }> {
  const dir = direction(query.order);
  const sortBy = (alias: string) =>
    query.key === 'email' ? sql`lower(${sql.raw(alias)}.email) ${dir}` : sql`${sql.raw(alias)}.name ${dir}`;
  const [result] = await preparedRows<{
    total: string | number;
    data: UserRow[];
    small: boolean | null;
    roots: ScopeRoot[] | null;
  }>(
    db,
    sql`with ${extra.prefix} matches as materialized (${matches})
        select ${extra.small} as small, ${extra.roots} as roots, (select count(*) from matches) as total,
          (select coalesce(json_agg(p order by ${sortBy('p')}, p.id), '[]'::json) from (
            select s.id, s.name, s.email, ${organizationsOfUser(sql`s.id`, visible)} as organizations
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
