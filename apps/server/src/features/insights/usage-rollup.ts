import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { sqlState } from '../../db/transaction';

export interface RollUpOptions {
  /** Journal transactions claimed per database transaction (default 2,000). */
  batchSize?: number;
  /** Stop after this many batches (default: until the queue is empty). */
  maxBatches?: number;
  /**
   * For a reader: wait at most a second for a roll-up in progress (one runs at a time, under a transaction-level
   * advisory lock), then give up and let the caller read what is committed (decision 014).
   */
  skipIfBusy?: boolean;
}

const ROLLUP_LOCK = sql`hashtext('allot:credit-usage-rollup')`;
/** SQLSTATE of a lock wait that ran past `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/*
 * One batch in one statement (decision 014, "Roll-up"): claim up to N queued transactions (SKIP LOCKED, so
 * concurrent roll-ups claim disjoint sets and each transaction is counted once), read their lines, work out
 * received / handed down / consumed per organization concerned and UTC day, add them in, and record who
 * consumed where. The claim's delete commits with the sums, or neither does.
 */
function batchStatement(batchSize: number) {
  return sql`
    with claimed as (
      delete from credit_usage_queue q
      where q.transaction_id in (
        select transaction_id from credit_usage_queue for update skip locked limit ${batchSize})
      returning q.transaction_id
    ),
    lines as materialized (
      select t.id as tx, t.action, t.actor_id, (t.created_at at time zone 'UTC')::date as day,
        e.amount, a.kind, a.organization_id as org, a.user_id,
        a.kind in ('shared', 'protected') as pool,
        -- A person's balance: one per membership (kind 'user'), or the closed one of before migration 0020.
        a.kind in ('user', 'person') as held
      from claimed c
      join credit_transactions t on t.id = c.transaction_id
      join credit_entries e on e.transaction_id = t.id
      join credit_accounts a on a.id = e.account_id
    ),
    -- What each transaction did, in one pass (joined by hash, never scanned per row: a batch of 2,000
    -- consumptions once cost 1.4 ms a transaction, growing with the batch).
    tx_facts as materialized (
      select tx, bool_or(held and amount < 0) as from_held,
        (array_agg(user_id) filter (where held and amount < 0))[1] as drawn_user
      from lines group by tx
    ),
    debited_pools as materialized (
      select tx, day, org, -sum(amount) as amount from lines where pool and amount < 0 group by tx, day, org
    ),
    -- Each transaction with every ancestor-or-self of an organization whose pool it debits: one set, joined by
    -- hash below. A correlated subquery over debited_pools here ran once per line and ancestor, each a scan
    -- of the whole CTE: a batch of 2,000 transfers took 7.2 s (quadratic in the batch; 1,000 took 0.16 s).
    debited_reach as materialized (
      select distinct d.tx, dc.ancestor_id from debited_pools d
      join organization_closure dc on dc.descendant_id = d.org
    ),
    -- Credits into B's pools count for each ancestor-or-self of B that is not an ancestor-or-self of an
    -- organization whose pool the same transaction debits (a move inside X's subtree is not received by X),
    -- nor when they come from people's balances (a reclaim from members stays inside).
    received as (
      select l.day, c.ancestor_id as org, sum(l.amount) as amount
      from lines l
      join tx_facts f on f.tx = l.tx and not f.from_held
      join organization_closure c on c.descendant_id = l.org
      where l.pool and l.amount > 0
        and not exists (select 1 from debited_reach r where r.tx = l.tx and r.ancestor_id = c.ancestor_id)
      group by l.day, c.ancestor_id
    ),
    -- A debit of A's pools going to people's balances or to pools strictly below A: gross, for every
    -- ancestor-or-self of A.
    handed as (
      select d.day, d.org, least(d.amount, coalesce(sum(l.amount) filter (
          where l.held or (l.pool and b.descendant_id is not null)), 0)) as amount
      from debited_pools d
      left join lines l on l.tx = d.tx and l.amount > 0
      left join organization_closure b on l.pool and b.ancestor_id = d.org and b.descendant_id = l.org and b.depth > 0
      group by d.tx, d.day, d.org, d.amount
    ),
    handed_down as (
      select h.day, c.ancestor_id as org, sum(h.amount) as amount
      from handed h join organization_closure c on c.descendant_id = h.org
      where h.amount > 0
      group by h.day, c.ancestor_id
    ),
    consumed as (
      select l.day, c.ancestor_id as org, sum(l.amount) as amount
      from lines l join organization_closure c on c.descendant_id = l.org
      where l.kind = 'consumed' and l.amount > 0
      group by l.day, c.ancestor_id
    ),
    sums as (
      select org, day, sum(r) as received, sum(h) as handed_down, sum(k) as consumed from (
        select org, day, amount as r, 0 as h, 0 as k from received
        union all select org, day, 0, amount, 0 from handed_down
        union all select org, day, 0, 0, amount from consumed) s
      group by org, day
    ),
    added as (
      insert into credit_usage_days (organization_id, day, received, handed_down, consumed)
      select org, day, received, handed_down, consumed from sums order by org, day
      on conflict (organization_id, day) do update set
        received = credit_usage_days.received + excluded.received,
        handed_down = credit_usage_days.handed_down + excluded.handed_down,
        consumed = credit_usage_days.consumed + excluded.consumed
      returning 1
    ),
    -- Who consumed: the member whose balance the consumption drew on, else the posting's actor.
    consumers as (
      select coalesce(f.drawn_user, case when k.action = 'consumption' then k.actor_id end) as user_id,
        k.org, max(k.day) as day
      from lines k join tx_facts f on f.tx = k.tx
      where k.kind = 'consumed' and k.amount > 0
      group by 1, 2
    ),
    last_used as (
      insert into member_consumption (user_id, organization_id, last_consumed_on)
      select user_id, org, max(day) from consumers where user_id is not null
      group by user_id, org order by user_id, org
      on conflict (user_id, organization_id) do update set
        last_consumed_on = greatest(member_consumption.last_consumed_on, excluded.last_consumed_on)
      returning 1
    ),
    -- Members' balances of each subtree (decision 014, "Members' credits"): a line on a member's balance in X
    -- counts for every ancestor-or-self of X. X deleted (its closure rows gone): for those of its nearest live
    -- ancestor, which counted X's lines while X was live; X's own row is not read again.
    member_orgs as (select distinct org from lines where kind = 'user'),
    anchors as (
      select m.org, (
        with recursive up(id, n) as (
          select m.org, 0
          union all
          select o.parent_id, up.n + 1 from up join organizations o on o.id = up.id
          where o.parent_id is not null
            and not exists (select 1 from organization_closure x where x.descendant_id = up.id and x.depth = 0))
        select up.id from up
        where exists (select 1 from organization_closure x where x.descendant_id = up.id and x.depth = 0)
        order by up.n limit 1) as live
      from member_orgs m
    ),
    member_credits as (
      select c.ancestor_id as org, sum(l.amount) as amount
      from lines l join anchors a on a.org = l.org join organization_closure c on c.descendant_id = a.live
      where l.kind = 'user'
      group by c.ancestor_id having sum(l.amount) <> 0
    ),
    members_counted as (
      insert into subtree_member_credits (organization_id, credits)
      select org, amount from member_credits order by org
      on conflict (organization_id) do update set credits = subtree_member_credits.credits + excluded.credits
      returning 1
    ),
    -- The pools strictly below each organization (decision 016): a line on X's pool counts for every strict
    -- ancestor of X. An organization's delete rolls up before its closure rows go (organizations/
    -- write-organizations.ts), so no line of a deleted organization is left to count here.
    pools_below as (
      select c.ancestor_id as org, sum(l.amount) as amount
      from lines l join organization_closure c on c.descendant_id = l.org and c.depth > 0
      where l.pool
      group by c.ancestor_id having sum(l.amount) <> 0
    ),
    pools_counted as (
      insert into subtree_pool_credits (organization_id, credits)
      select org, amount from pools_below order by org
      on conflict (organization_id) do update set credits = subtree_pool_credits.credits + excluded.credits
      returning 1
    )
    select (select count(*) from claimed)::int as claimed, (select count(*) from members_counted)::int as members,
      (select count(*) from pools_counted)::int as pools,
      (select count(*) from added)::int as days, (select count(*) from last_used)::int as consumers`;
}

/**
 * Rolls the queued journal transactions up into `credit_usage_days`, `member_consumption` (decision 014,
 * "Roll-up"), `subtree_member_credits` ("Members' credits") and `subtree_pool_credits` (decision 016), a batch
 * per database transaction (a savepoint inside a caller's transaction), until the queue is empty (or
 * `maxBatches`). Answers how many journal transactions it rolled up.
 */
export async function rollUpCreditUsage(db: Tx, options: RollUpOptions = {}): Promise<number> {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 2_000));
  const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const claimed = await db
      .transaction(async (tx) => {
        // One roll-up at a time (decision 014, "Roll-up"): a reader waits a moment for a job's batch, then
        // reads what is committed.
        if (options.skipIfBusy) await tx.execute(sql`set local lock_timeout = '1s'`);
        await tx.execute(sql`select pg_advisory_xact_lock(${ROLLUP_LOCK})`);
        const [journal] = await rows<{ claimed: number }>(tx, batchStatement(batchSize));
        return Number(journal?.claimed ?? 0);
      })
      .catch((error: unknown) => {
        if (options.skipIfBusy && sqlState(error) === LOCK_NOT_AVAILABLE) return 0;
        throw error;
      });
    total += claimed;
    if (claimed < batchSize) break;
  }
  return total;
}

/** Whether any journal transaction waits for the roll-up: one index probe, no lock. */
export async function creditUsageQueued(db: Db): Promise<boolean> {
  const [row] = await rows<{ queued: boolean }>(
    db,
    sql`select exists (select 1 from credit_usage_queue) as queued`,
  );
  return row?.queued === true;
}
