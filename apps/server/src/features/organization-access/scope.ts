import { SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import { MANAGING_ROLES_SQL } from '../../lib/managing-roles';

/*
 * Subtrees as other queries need them, over the closure table (`organization_closure`, see tree.ts of the
 * organizations feature). Each function takes the columns of the caller's query it talks about as
 * arguments; the aliases it uses stay inside its own subquery.
 */

/**
 * Organizations where the user holds owner or admin directly, leaving out those inside another of them:
 * the roots of what it sees, each subtree once (`organization_id`), and each subtree's size (`size`).
 */
export function managedScopeSql(userId: string): SQL {
  return sql`select m.organization_id, o.descendants_count + 1 as size from memberships m
    join organizations o on o.id = m.organization_id
    where m.user_id = ${userId} and m.role in ${MANAGING_ROLES_SQL}
      and not exists (
        select 1 from organization_closure c
        join memberships above on above.organization_id = c.ancestor_id
        where c.descendant_id = m.organization_id and c.depth > 0 and above.user_id = ${userId}
          and above.role in ${MANAGING_ROLES_SQL})`;
}

/** `managedScopeSql` as a query: the roots, and how many organizations their subtrees hold. */
export async function managedScope(
  db: Tx,
  userId: string,
): Promise<{ roots: string[]; organizations: number }> {
  const found = await preparedRows<{ organization_id: string; size: number | string }>(
    db,
    managedScopeSql(userId),
  );
  return {
    roots: found.map((r) => r.organization_id),
    organizations: found.reduce((sum, r) => sum + Number(r.size), 0),
  };
}

/**
 * The condition "the organization `organizationId` (a column or value of the caller's query) lies in the
 * subtree of one of `roots`, itself included": `roots` is a query answering organization ids, or the ids
 * themselves (see `rootCondition`). One index probe of the closure table.
 */
export function inSubtreesSql(organizationId: SQL, roots: SQL | readonly string[]): SQL {
  const isRoot =
    roots instanceof SQL ? sql`c.ancestor_id in (${roots})` : rootCondition(sql`c.ancestor_id`, roots);
  return sql`exists (select 1 from organization_closure c
    where c.descendant_id = ${organizationId} and ${isRoot})`;
}

/**
 * The live organizations in the subtrees of `roots` (a query answering organization ids), themselves
 * included, as a relation with one column, `organization_id`. Only live organizations have closure rows.
 */
export function organizationsInSubtreesSql(roots: SQL): SQL {
  return sql`select c.descendant_id as organization_id from organization_closure c
    where c.ancestor_id in (${roots})`;
}

/**
 * `column` is one of `roots`, as parameters. One root (the usual case) is an equality, so that an index
 * on (ancestor_id, name) also gives the name order; the statement's text depends only on how many roots.
 */
export function rootCondition(column: SQL, roots: readonly string[]): SQL {
  if (roots.length === 1) return sql`${column} = ${roots[0]}::uuid`;
  return sql`${column} in (${sql.join(
    roots.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}
