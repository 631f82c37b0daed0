import type { SubOrganizationSortKey, SubOrganizationSummary } from '@allot/domain/organizations';
import type { PaginationQuery } from '@allot/domain/pagination';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { findsNothing, matchesTerms, searchTerms } from '../../lib/search';
import { daysLeftOf, daysLeftSql, subtreeMemberCreditsSql, subtreePoolsSql } from '../insights';
import { childrenOf, selectOrganizationSummaries } from './queries';

/**
 * The sub-organizations list sorted by days left (decision 014, "Days left"): every child matching the search
 * has its days left worked out (its subtree's credits and its 28-day consumption, from `credit_usage_days`),
 * then sorted (nulls last in both orders, then name and id) and paged; the summaries are read for the page's
 * rows only. Answers the page, the total and the caller's roles (the access check rides on the query). The
 * caller rolls up the credit usage first (`rollUpBeforeRead`).
 */
export async function pageSubOrganizationsByDaysLeft(
  db: Db,
  parentId: string,
  query: PaginationQuery<SubOrganizationSortKey>,
  rolesHeld: SQL,
): Promise<{ data: SubOrganizationSummary[]; total: number; rolesHeld: string[] | null }> {
  const terms = searchTerms(query.search);
  const source = childrenOf(parentId);
  const searched = terms.length === 0 ? sql`` : sql`and ${matchesTerms(source.searchText, terms, 'name')}`;
  const nothing = findsNothing(terms) ? sql`and false` : sql``;
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  const [found] = await rows<{
    roles: string[] | null;
    total: string;
    page: { id: string; days_left: number | null }[];
  }>(
    db,
    sql`with hits as materialized (
          select o.id, o.name, ${subtreePoolsSql(sql`o`)} as pools ${source.hits} ${searched} ${nothing}),
        ranked as materialized (select h.id, h.name,
          ${daysLeftSql(sql`h.id`, sql`(h.pools + ${subtreeMemberCreditsSql(sql`h.id`)})`)} as days_left
          from hits h)
      select ${rolesHeld} as roles, (select count(*) from hits)::text as total,
        (select coalesce(json_agg(json_build_object('id', r.id, 'days_left', r.days_left)
            order by r.days_left ${dir} nulls last, r.name ${dir}, r.id ${dir}), '[]'::json)
          from (select * from ranked order by days_left ${dir} nulls last, name ${dir}, id ${dir}
                limit ${query.limit} offset ${(query.page - 1) * query.limit}) r) as page`,
  );
  const page = found?.page ?? [];
  const summaries = new Map(
    (await selectOrganizationSummaries(db, sql`o.id in ${uuidsIn(page.map((p) => p.id))}`)).map((s) => [
      s.id,
      s,
    ]),
  );
  return {
    data: page.flatMap((p) => {
      const summary = summaries.get(p.id);
      return summary ? [{ ...summary, daysLeft: p.days_left === null ? null : Number(p.days_left) }] : [];
    }),
    total: Number(found?.total ?? 0),
    rolesHeld: found?.roles ?? null,
  };
}

/**
 * The page's summaries with their days left, read for the page's rows in one more query (the caller rolls up
 * the credit usage first).
 */
export async function withDaysLeft<T extends { id: string }>(
  db: Db,
  data: readonly T[],
): Promise<(T & { daysLeft: number | null })[]> {
  const daysLeft = await daysLeftOf(
    db,
    data.map((row) => row.id),
  );
  return data.map((row) => ({ ...row, daysLeft: daysLeft.get(row.id) ?? null }));
}
