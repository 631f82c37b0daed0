-- The posting function and the balance trigger run each of their statements on a plan made once per connection
-- (issue 32, decision 006). PL/pgSQL plans a statement with its values for its first five runs and keeps doing
-- so when the generic plan's estimate is higher, which it is for every statement over `unnest` of the
-- function's arrays: each posting planned about fifteen statements again, more than half of its time in
-- PostgreSQL (0.93 → 0.41 ms for a consumption, 1.15 → 0.53 ms for a transfer, measured statement by statement
-- with pg_stat_statements).
-- A plan made once must stay right while the journal grows: one made when `credit_transactions` held a few
-- rows scanned the whole table for each posting (13,000 rows read a posting after a few thousand transfers).
-- Every statement of the two looks rows up by their keys, so sequential scans are off inside them: the plans
-- probe the indexes whatever the tables' sizes were when planned. The bulk mint of seed:scale (200,010 lines in
-- one call) takes about twice as long this way (12 → 24 s), which a seed can afford.
ALTER FUNCTION post_credit_transactions(text[], uuid[], text[], integer[], uuid[], bigint[], uuid[], timestamptz)
  SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION post_credit_transactions(text[], uuid[], text[], integer[], uuid[], bigint[], uuid[], timestamptz)
  SET enable_seqscan = off;
--> statement-breakpoint
ALTER FUNCTION credit_entries_apply() SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION credit_entries_apply() SET enable_seqscan = off;
--> statement-breakpoint
-- The check at COMMIT that each journal transaction balances reads its lines by `transaction_id`: planned while
-- the journal was small, it read the whole of it at every commit.
ALTER FUNCTION credit_transaction_balanced() SET enable_seqscan = off;
