import {
  LICENSE_EXPIRING_SOON_DAYS,
  type LicenseType,
  type OrganizationRef,
  type OrganizationSortKey,
  type OrganizationSummary,
  type OrganizationType,
} from '@allot/domain/organizations';
import type { PaginationQuery } from '@allot/domain/pagination';
import { SEARCH_TOTAL_CAP } from '@allot/domain/pagination';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { preparedRows } from '../../db/prepared-rows';
import { rows } from '../../db/rows';
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
import { rootCondition } from '../organization-access';

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
  /** Only where asked for (`pageOrganizationSummaries`' `path`). */
  path?: OrganizationRef[];
};

/**
 * The summary columns of CONTRACT §4 for each row of `base` (a relation of organizations named `o`).
 * The counts are kept by triggers (migration 0006), the pools by the credit journal; the owner is an
 * index probe per row: the member who owns it, else the account invited to own it, as the inviter typed it
 * (CONTRACT §3: nothing of the account before it accepts). The licence expiring soon (decision 009, "Expiry
 * reminders") is another probe per row, on the licences' (organization_id, license_type) index: at most one
 * row per type.
 */
function summarise(base: SQL, path?: SQL) {
  return sql`
    select o.id, o.name, o.type, o.phone_number, o.parent_id, o.created_at, o.users_count, o.sub_organizations_count,
      owner.name as admin_name, owner.email as admin_email,
      o.shared_credits, o.protected_credits,
      expiring.license_type as expiring_license_type, expiring.expire_at as expiring_license_expire_at
      ${path ? sql`, ${path} as path` : sql``}
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
export function organizationSummariesJson(where: SQL, options: { limit?: number; path?: SQL } = {}): SQL {
  const base = sql`select * from organizations o where o.deleted_at is null and (${where})
    order by o.name, o.id ${options.limit === undefined ? sql`` : sql`limit ${options.limit}`}`;
  return sql`(select coalesce(json_agg(s order by s.name, s.id), '[]'::json) from (${summarise(base, options.path)}) s)`;
}

/**
 * The summary of the one live organization picked by `where` (over `o`, at most one row: its id), as a JSON
 * object, null when there is none: an organization's own read, without a list's aggregate and sorts (which
 * cost PostgreSQL a sixth of that read: issue 32).
 */
export function organizationSummaryJson(where: SQL): SQL {
  const base = sql`select * from organizations o where o.deleted_at is null and (${where})`;
  return sql`(select row_to_json(s) from (${summarise(base)}) s)`;
}

/** Summaries of the live organizations picked by `where` (over `o`), by name. */
export async function selectOrganizationSummaries(
  db: Tx,
  where: SQL,
  options: { limit?: number; path?: SQL } = {},
) {
  const [row] = await preparedRows<{ summaries: SummaryRow[] }>(
    db,
    sql`select ${organizationSummariesJson(where, options)} as summaries`,
  );
  return (row?.summaries ?? []).map(toSummary);
}

/**
 * Where a paginated list of organizations comes from. `from` is a FROM … WHERE … clause giving live
 * organizations as `o`; `hits` is the cheapest FROM … WHERE … that yields the same rows' `id` and `name`
 * (`id`, `name`; on the closure table, its own copies) and their `search_text` (`searchText`); `total`,
 * when set, counts the unsearched list without scanning it. `indexed`: how a search finds its matches
 * (see `pageOrganizationSummaries`); without it, a search checks every row of `hits`.
 */
export interface OrganizationSource {
  from: SQL;
  hits: SQL;
  id: SQL;
  name: SQL;
  searchText: SQL;
  total?: SQL;
  /** The search index of each root's subtree (closure rows), or of every organization (a system admin). */
  indexed?: { roots: readonly string[] } | 'all';
}

/** Direct children of an organization: searched, each child is checked (it stays a prepared statement). */
export function childrenOf(parentId: string): OrganizationSource {
  const from = sql`from organizations o where o.parent_id = ${parentId} and o.deleted_at is null`;
  return {
    from,
    hits: from,
    id: sql`o.id`,
    name: sql`o.name`,
    searchText: sql`o.search_text`,
    total: sql`select sub_organizations_count from organizations where id = ${parentId}`,
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
    searchText: sql`o.search_text`,
    total: sql`select coalesce(sum(descendants_count + 1), 0) from organizations
               where parent_id is null and deleted_at is null`,
    indexed: 'all',
  };
}

/**
 * The subtrees of `roots` (none inside another: see `managedScope`, organization-access/scope.ts), themselves
 * included. Only live organizations have ancestry rows (a delete removes them). `indexed`: searched, the
 * matches come from the search index (large subtrees); otherwise every row of the subtrees is checked.
 */
export function subtreesOf(roots: string[], { indexed }: { indexed: boolean }): OrganizationSource {
  if (roots.length === 0) {
    const none = sql`from organizations o where false`;
    return {
      from: none,
      hits: none,
      id: sql`o.id`,
      name: sql`o.name`,
      searchText: sql`o.search_text`,
      total: sql`select 0`,
    };
  }
  const isUnder = rootCondition(sql`c.ancestor_id`, roots);
  return {
    from: sql`from organization_closure c join organizations o on o.id = c.descendant_id where ${isUnder}`,
    hits: sql`from organization_closure c where ${isUnder}`,
    id: sql`c.descendant_id`,
    name: sql`c.name`,
    searchText: sql`c.search_text`,
    total: sql`select coalesce(sum(descendants_count + 1), 0) from organizations where ${rootCondition(sql`id`, roots)}`,
    indexed: indexed ? { roots } : undefined,
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

export interface OrganizationPage {
  /** With `path` when the page was asked for it. */
  data: (OrganizationSummary & { path?: OrganizationRef[] })[];
  total: number;
  /** Set when a search found more than the cap: `total` is the count so far, `hasNext` the page after. */
  capped?: { hasNext: boolean };
  rolesHeld: string[] | null;
}

/**
 * One page of a list of organizations, searched by word prefixes and sorted (CONTRACT §1), and its total:
 * one query. Unsearched, the page is read in index order and the total comes from the counters. Searched:
 * - without `indexed` (one parent's children, a small subtree), every row is checked and counted;
 * - with it, the search index gives at most `SEARCH_COUNT_LIMIT` matches. Up to the cap they are all
 *   there: counted, sorted, and the page cut from them. Beyond it, the total is capped and the page comes
 *   from walking the name index and checking each entry until the page is full (a common word fills it
 *   quickly); sorted by anything else than the name, every match is read and sorted.
 * The owner and the rest of a summary are looked up for the page's rows only. Ties are broken by name and
 * id (ascending under credits).
 */
export async function pageOrganizationSummaries(
  db: Tx,
  source: OrganizationSource,
  query: PaginationQuery<OrganizationSortKey>,
  /** Also selects these roles (`rolesHeldSql`), so that the access check rides on the same query. */
  rolesHeld: SQL = sql`null`,
  {
    wholeRangeMaxEntries = WHOLE_RANGE_MAX_ENTRIES,
    path,
  }: {
    wholeRangeMaxEntries?: number | undefined;
    /** Each row's path too: a JSON column over the organization `o` (in the same statement as the page). */
    path?: SQL;
  } = {},
): Promise<OrganizationPage> {
  const terms = searchTerms(query.search);
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  const tieDir = query.key === 'credits' ? sql`asc` : dir;
  const offset = (query.page - 1) * query.limit;
  const window = sql`limit ${query.limit} offset ${offset}`;
  const sortBy = query.key === 'name' ? null : sql.raw(sortValue('o', query.key));
  const json = (base: SQL) =>
    sql`(select coalesce(json_agg(p order by ${pageOrder(query.key, query.order)}), '[]'::json) from (${summarise(base, path)}) p)`;
  /** The list's order over rows `r` of `pageRows`: the sort value, then name and id. */
  const rowOrder = sortBy
    ? sql`r.sort_value ${dir}, r.name ${tieDir}, r.id ${tieDir}`
    : sql`r.name ${dir}, r.id ${dir}`;
  /** `rowsWindow` rows of `matches` (`id`, `name`) in the list's order, as `id`, `name`, `sort_value`. */
  const pageRows = (matches: SQL, rowsWindow: SQL) =>
    sql`select * from (
        select h.id, h.name, ${sortBy ?? sql`null`} as sort_value from (${matches}) h
        ${sortBy ? sql`join organizations o on o.id = h.id` : sql``}) r
      order by ${rowOrder} ${rowsWindow}`;

  type Result = { total: number | string | null; data: SummaryRow[] | null; roles: string[] | null };
  let statement: SQL;
  if (terms.length === 0) {
    const total = source.total ?? sql`select count(*) ${source.hits}`;
    const base = sql`select o.* ${source.from}
      order by ${sortBy ? sql`${sortBy} ${dir},` : sql``} ${source.name} ${tieDir}, ${source.id} ${tieDir} ${window}`;
    statement = sql`select ${rolesHeld} as roles, (${total}) as total, ${json(base)} as data`;
  } else if (findsNothing(terms)) {
    statement = sql`select ${rolesHeld} as roles, 0 as total, '[]'::json as data`;
  } else if (!source.indexed) {
    // A materialized CTE: the rows are checked once, then counted and paged.
    statement = sql`with hits as materialized (
        select ${source.id} as id, ${source.name} as name ${source.hits}
          and ${matchesTerms(source.searchText, terms, 'name')})
      select ${rolesHeld} as roles, (select count(*) from hits) as total,
        ${json(sql`select o.* from (${pageRows(sql`select * from hits`, window)}) r join organizations o on o.id = r.id`)} as data`;
  } else {
    const [rangeWord] = byEstimatedRange(db, 'organization_search_words', plainWords(terms));
    const { hits, walk } = indexedSearchParts(
      source.indexed,
      terms,
      query.order,
      offset + query.limit + 1,
      rangeWord ?? null,
    );
    // One more row than the page, to tell whether another page follows a capped total.
    const pageAndNext = sql`limit ${query.limit + 1} offset ${offset}`;
    const wholeRange = readsRangeWhole(
      'organization_search_words',
      source.indexed === 'all' ? [NIL_SCOPE] : source.indexed.roots,
      terms,
      rangeWord,
      wholeRangeMaxEntries,
    );
    // Only the search is planned per call, answering the page's ids in order; the summaries are a
    // prepared statement: planning their joins too cost more than running the search (decision 002).
    const idsOf = (matches: SQL, rowsWindow: SQL) =>
      sql`(select coalesce(json_agg(r.id order by ${rowOrder}), '[]'::json) from (${pageRows(matches, rowsWindow)}) r)`;
    const [found] = await rows<{ total: number | string; ids: string[]; roles: string[] | null }>(
      db,
      sql`with hits as materialized (${hits(SEARCH_COUNT_LIMIT)}),
          counted as materialized (select count(*) as n from hits)
        select ${rolesHeld} as roles, (select n from counted) as total,
          case when (select n from counted) <= ${SEARCH_TOTAL_CAP}
            then ${idsOf(sql`select * from hits`, window)}
            else ${sortBy || wholeRange ? idsOf(hits(null), pageAndNext) : idsOf(walk, pageAndNext)} end as ids`,
    );
    const total = Number(found?.total ?? 0);
    const pageIds = found?.ids ?? [];
    const summaries = new Map(
      (
        await selectOrganizationSummaries(db, sql`o.id in ${uuidsIn(pageIds.slice(0, query.limit))}`, {
          path,
        })
      ).map((summary) => [summary.id, summary]),
    );
    return {
      data: pageIds.slice(0, query.limit).flatMap((id) => summaries.get(id) ?? []),
      total,
      capped: total > SEARCH_TOTAL_CAP ? { hasNext: pageIds.length > query.limit } : undefined,
      rolesHeld: found?.roles ?? null,
    };
  }
  // Read row by row, the plan is the same whatever the search text: a prepared statement.
  const [result] = await preparedRows<Result>(db, statement);
  const total = Number(result?.total ?? 0);
  return {
    data: (result?.data ?? []).map(toSummary),
    total,
    capped: terms.length > 0 ? cappedFromExact(total, query) : undefined,
    rolesHeld: result?.roles ?? null,
  };
}

/**
 * The two halves of a search through the search index.
 * - `hits(limit)`: the matches (`id`, `name`), at most `limit` (null: all): one word, its range of the
 *   btree of words; several terms of which at least one is a plain word, `rangeWord`'s range (the plain
 *   word with the smallest range, estimated) with every term checked in the entry; otherwise the GIN index of each scope's
 *   words, checked exactly, kept apart (OFFSET 0) so that it is planned on its own: it must not turn into
 *   a walk of the name index with the words as a filter.
 * - `walk`: the first `rowsNeeded` matches in name order, read from the name index of each root's subtree
 *   (its entries carry `search_text`: the table is not read) and merged.
 */
function indexedSearchParts(
  indexed: NonNullable<OrganizationSource['indexed']>,
  terms: readonly string[],
  order: 'asc' | 'desc',
  rowsNeeded: number,
  rangeWord: string | null,
): { hits: (limit: number | null) => SQL; walk: SQL } {
  const dir = order === 'desc' ? sql`desc` : sql`asc`;
  const limitBy = (limit: number | null) => (limit === null ? sql`` : sql`limit ${limit}`);
  // One word: a range of the btree of words, read from the index alone (decision 002).
  const word = singleWord(terms);
  const wordHits = (scope: string, word: string, limit: number | null) =>
    sql`select w.organization_id as id, w.name from organization_search_words w
      where w.scope_id = ${scope}::uuid and ${wordPrefix(word)} ${limitBy(limit)}`;
  const rangeHits = (scope: string, rangeWord: string, limit: number | null) =>
    sql`${inWordRange(
      'organization_search_words',
      sql`${scope}::uuid`,
      rangeWord,
      sql`select w.organization_id as id, w.name`,
      matchesTerms(sql`w.search_text`, terms, 'name', { planned: true }),
    )} ${limitBy(limit)}`;
  if (indexed === 'all') {
    const matches = matchesTerms(sql`o.search_text`, terms, 'name', { planned: true });
    return {
      hits: (limit) =>
        word
          ? wordHits(NIL_SCOPE, word, limit)
          : rangeWord
            ? rangeHits(NIL_SCOPE, rangeWord, limit)
            : sql`select o.id, o.name from (
          select * from organizations o where o.search_vector @@ ${searchQuery(NIL_SCOPE, terms)}
            and o.deleted_at is null offset 0) o
        where ${matches} ${limitBy(limit)}`,
      walk: sql`select o.id, o.name from organizations o where o.deleted_at is null and ${matches}
        order by o.name ${dir}, o.id ${dir} limit ${rowsNeeded}`,
    };
  }
  const matches = matchesTerms(sql`c.search_text`, terms, 'name', { planned: true });
  const perRoot = (each: (root: string) => SQL) =>
    sql.join(
      indexed.roots.map((root) => sql`(${each(root)})`),
      sql` union all `,
    );
  return {
    // Subtrees of the roots do not overlap: no organization is found twice.
    hits: (limit) =>
      sql`select * from (${perRoot((root) =>
        word
          ? wordHits(root, word, limit)
          : rangeWord
            ? rangeHits(root, rangeWord, limit)
            : sql`select c.descendant_id as id, c.name from (
              select * from organization_closure c where c.search_vector @@ ${searchQuery(root, terms)} offset 0) c
            where c.ancestor_id = ${root}::uuid and ${matches}`,
      )}) found ${limitBy(limit)}`,
    walk: perRoot(
      (root) => sql`select c.descendant_id as id, c.name from organization_closure c
        where c.ancestor_id = ${root}::uuid and ${matches}
        order by c.name ${dir}, c.descendant_id ${dir} limit ${rowsNeeded}`,
    ),
  };
}

/** The page's order again over its summary rows `p`: the sort key, then name and id. */
function pageOrder(key: OrganizationSortKey, order: 'asc' | 'desc'): SQL {
  if (key === 'name') return sql.raw(`p.name ${order}, p.id ${order}`);
  const tie = key === 'credits' ? 'asc' : order;
  return sql.raw(`${sortValue('p', key)} ${order}, p.name ${tie}, p.id ${tie}`);
}

export function toSummary(row: SummaryRow): OrganizationSummary & { path?: OrganizationRef[] } {
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
    ...(row.path ? { path: row.path } : {}),
  };
}
