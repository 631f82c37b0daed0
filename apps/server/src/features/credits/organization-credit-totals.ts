import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';

/**
 * The credit figures stored on `organizations`: `shared_credits`/`protected_credits` (copies of the
 * organization's own pools) and `subtree_credits` (the pools strictly below it). `post_credit_transaction`
 * (migration 0011) keeps them in step with every posting; this recount is for repairs and for checking them.
 */
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
