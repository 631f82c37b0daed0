import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';

/** The net change of one organization's two pools in one journal transaction. */
export interface PoolChange {
  shared: number;
  protected: number;
}

/**
 * Keeps the credit figures stored on `organizations` in step with the balances, in the same transaction:
 * `shared_credits`/`protected_credits` (copies of the organization's own pools) and `subtree_credits` (the
 * pools strictly below it). Each ancestor gets the sum of the changes below it; ancestors whose sum is zero
 * (a move between two organizations under them) are not touched, so moves inside a district do not all
 * queue on the district's row. Rows are locked root first (by depth, then id), after the journal has locked
 * the accounts in id order: the lock order of every write (organizations/locks.ts).
 */
export async function applyOrganizationCreditChanges(
  tx: Tx,
  changes: Map<string, PoolChange>,
): Promise<void> {
  const changed = [...changes].filter(([, c]) => c.shared !== 0 || c.protected !== 0);
  if (changed.length === 0) return;
  const ancestry = await rows<{ ancestor_id: string; descendant_id: string }>(
    tx,
    sql`select ancestor_id, descendant_id from organization_closure
        where depth > 0 and descendant_id in (${sql.join(
          changed.map(([id]) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  );
  const updates = new Map<string, { below: number; shared: number; protected: number }>();
  const entry = (id: string) => {
    let found = updates.get(id);
    if (!found) {
      found = { below: 0, shared: 0, protected: 0 };
      updates.set(id, found);
    }
    return found;
  };
  for (const [id, change] of changed) {
    entry(id).shared += change.shared;
    entry(id).protected += change.protected;
  }
  for (const { ancestor_id, descendant_id } of ancestry) {
    const change = changes.get(descendant_id);
    if (change) entry(ancestor_id).below += change.shared + change.protected;
  }
  const rowsToUpdate = [...updates]
    .filter(([, u]) => u.below !== 0 || u.shared !== 0 || u.protected !== 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  if (rowsToUpdate.length === 0) return;
  const values = sql.join(
    rowsToUpdate.map(
      ([id, u]) => sql`(${id}::uuid, ${u.below}::bigint, ${u.shared}::bigint, ${u.protected}::bigint)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`select 1 from organizations
    where id in (select id from (values ${values}) v(id, below, shared, protected))
    order by depth, id for no key update`);
  await tx.execute(sql`update organizations o set
      subtree_credits = o.subtree_credits + v.below,
      shared_credits = o.shared_credits + v.shared,
      protected_credits = o.protected_credits + v.protected
    from (values ${values}) v(id, below, shared, protected) where o.id = v.id`);
}

/** Recomputes every stored figure from the balances (seeds that write balances in bulk, repairs). */
export async function rebuildOrganizationCreditTotals(tx: Tx): Promise<void> {
  await tx.execute(sql`update organizations o set
      shared_credits = coalesce(p.shared, 0),
      protected_credits = coalesce(p.protected, 0),
      subtree_credits = coalesce(t.total, 0)
    from organizations x
    left join (
      select organization_id as id,
        sum(balance) filter (where kind = 'shared') as shared,
        sum(balance) filter (where kind = 'protected') as protected
      from credit_accounts where organization_id is not null group by organization_id
    ) p on p.id = x.id
    left join (
      select c.ancestor_id as id, sum(a.balance) as total
      from organization_closure c
      join credit_accounts a on a.organization_id = c.descendant_id and a.kind in ('shared', 'protected')
      where c.depth > 0
      group by c.ancestor_id
    ) t on t.id = x.id
    where o.id = x.id
      and (o.subtree_credits, o.shared_credits, o.protected_credits)
        is distinct from (coalesce(t.total, 0), coalesce(p.shared, 0), coalesce(p.protected, 0))`);
}
