import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';

/**
 * The credit figures stored beside the journal: `organizations.shared_credits`/`protected_credits` (copies of
 * the organization's own pools, kept by `post_credit_transactions` in the posting's transaction) and
 * `subtree_pool_credits` (the pools strictly below, kept by the roll-up: decision 016). This recount is for
 * repairs and for checking them: it leaves the pools below less the lines still queued for the roll-up,
 * which `subtree_pool_credits_of` adds when read and the roll-up adds when it claims them.
 */
export async function rebuildOrganizationCreditTotals(tx: Tx): Promise<void> {
  await tx.execute(sql`update organizations o set
      shared_credits = coalesce(p.shared, 0),
      protected_credits = coalesce(p.protected, 0)
    from organizations x
    left join (
      select organization_id as id,
        sum(balance) filter (where kind = 'shared') as shared,
        sum(balance) filter (where kind = 'protected') as protected
      from credit_accounts where organization_id is not null group by organization_id
    ) p on p.id = x.id
    where o.id = x.id
      and (o.shared_credits, o.protected_credits) is distinct from (coalesce(p.shared, 0), coalesce(p.protected, 0))`);
  await tx.execute(sql`delete from subtree_pool_credits`);
  await tx.execute(sql`insert into subtree_pool_credits (organization_id, credits)
    select c.ancestor_id, sum(a.balance - coalesce(q.queued, 0))
    from credit_accounts a
    join organization_closure c on c.descendant_id = a.organization_id and c.depth > 0
    left join (select e.account_id, sum(e.amount) as queued from credit_usage_queue u
               join credit_entries e on e.transaction_id = u.transaction_id group by e.account_id) q on q.account_id = a.id
    where a.kind in ('shared', 'protected')
    group by c.ancestor_id
    having sum(a.balance - coalesce(q.queued, 0)) <> 0`);
}
