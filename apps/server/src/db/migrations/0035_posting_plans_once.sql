-- The posting function and the balance trigger run each of their statements on a plan made once per connection
-- (issue 32, decision 006). PL/pgSQL plans a statement with its values for its first five runs and keeps doing
-- so when the generic plan's estimate is higher, which it is for every statement over `unnest` of the
-- function's arrays: each posting planned about fifteen statements again, more than half of its time in
-- PostgreSQL (0.93 → 0.41 ms for a consumption, 1.15 → 0.53 ms for a transfer, measured statement by statement
-- with pg_stat_statements). The generic plans join by the accounts' primary key, which is what the custom
-- plans chose for the handful of lines a move has.
ALTER FUNCTION post_credit_transactions(text[], uuid[], text[], integer[], uuid[], bigint[], uuid[], timestamptz)
  SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION credit_entries_apply() SET plan_cache_mode = force_generic_plan;
