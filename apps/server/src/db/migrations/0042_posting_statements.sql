-- Fewer statements a posting (issue 32, decision 006). PostgreSQL's time in a posting is spread over its
-- statements: each one run (a statement of a function, a trigger's, a foreign key's check) pays for starting
-- and ending its plan, its locks on the tables and its memory, whatever rows it touches. A transfer through the
-- API ran 31 statements; it runs 24 after this migration (22 after 0043).
--
-- 1. The posting function: the postings' check and the accounts' changes in one statement (they were two); the
--    check of what the locked accounts belong to and the pools that move, in one (two); the headers' ids made
--    by the insert of the headers (two).
-- 2. The balance trigger: the check that its lines' journal transactions were written by this database
--    transaction, and the sums by account, in one statement (they were three).
-- 3. The lines' foreign key to their journal transaction goes: the balance trigger's check above already
--    refuses a line whose journal transaction is not one this database transaction wrote (CR005), which a
--    transaction that does not exist is not; and a journal transaction is never deleted (CR003). Its check ran
--    once a line, two a transfer, each taking a row lock on the header just written.
CREATE OR REPLACE FUNCTION post_credit_transactions(p_actions text[], p_actors uuid[], p_descriptions text[],
  p_postings integer[], p_accounts uuid[], p_amounts bigint[], p_report uuid[] DEFAULT '{}',
  p_created_at timestamptz DEFAULT NULL)
RETURNS jsonb LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_count integer := coalesce(cardinality(p_actions), 0);
  v_ids uuid[];
  v_deltas bigint[];
  v_with_lines integer;
  v_unbalanced boolean;
  v_locked integer;
  v_short uuid;
  v_short_balance bigint;
  v_to_members boolean;
  v_sinks integer;
  v_sink_taken boolean;
  v_deleted boolean;
  v_txs uuid[];
  v_orgs uuid[];
  v_shared bigint[];
  v_protected bigint[];
BEGIN
  IF v_count = 0 OR p_actors IS NULL OR p_descriptions IS NULL OR p_postings IS NULL OR p_accounts IS NULL
     OR p_amounts IS NULL OR cardinality(p_actors) <> v_count OR cardinality(p_descriptions) <> v_count
     OR cardinality(p_accounts) <> cardinality(p_amounts) OR cardinality(p_postings) <> cardinality(p_amounts)
     OR array_position(p_actions, NULL) IS NOT NULL OR array_position(p_postings, NULL) IS NOT NULL
     OR array_position(p_accounts, NULL) IS NOT NULL OR array_position(p_amounts, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'a posting needs one amount per account' USING ERRCODE = 'CR006';
  END IF;
  -- Each posting: in range, with lines, summing to zero; and the change of each account. One statement.
  SELECT g.with_lines, g.unbalanced, g.out_of_range, d.ids, d.deltas
    INTO v_with_lines, v_unbalanced, v_deleted, v_ids, v_deltas
    FROM (SELECT count(*) FILTER (WHERE p.p BETWEEN 1 AND v_count AND p.lines > 0) AS with_lines,
                 coalesce(bool_or(p.total <> 0), false) AS unbalanced,
                 coalesce(bool_or(p.p < 1 OR p.p > v_count), false) AS out_of_range
          FROM (SELECT l.p, count(*) FILTER (WHERE l.amount <> 0) AS lines, sum(l.amount) AS total
                FROM unnest(p_postings, p_amounts) AS l(p, amount) GROUP BY l.p) p) g,
         (SELECT array_agg(a.account ORDER BY a.account) AS ids, array_agg(a.delta ORDER BY a.account) AS deltas
          FROM (SELECT account, sum(amount)::bigint AS delta FROM unnest(p_accounts, p_amounts) AS l(account, amount)
                WHERE amount <> 0 GROUP BY account) a) d;
  IF v_deleted THEN
    RAISE EXCEPTION 'a posting needs one amount per account' USING ERRCODE = 'CR006';
  END IF;
  IF v_with_lines <> v_count THEN
    RAISE EXCEPTION 'a credit transaction needs lines' USING ERRCODE = 'CR006';
  END IF;
  IF v_unbalanced THEN
    RAISE EXCEPTION 'a credit transaction must sum to zero' USING ERRCODE = 'CR004';
  END IF;

  -- The locks, in id order, and what the rules need of the locked rows as they are now (a row locked after a
  -- wait is read again at its latest version). Consumed accounts keep no balance and are not locked.
  -- Joins with unnest rather than `= ANY`: the bulk mint of seed:scale posts 200,010 lines in one call.
  SELECT count(*), (array_agg(l.id ORDER BY l.id) FILTER (WHERE l.kind <> 'system' AND l.balance + l.delta < 0))[1],
         (array_agg(l.balance ORDER BY l.id) FILTER (WHERE l.kind <> 'system' AND l.balance + l.delta < 0))[1],
         coalesce(bool_or(l.kind IN ('user', 'person') AND l.delta > 0), false)
    INTO v_locked, v_short, v_short_balance, v_to_members
    FROM (SELECT a.id, a.kind, a.balance, d.delta FROM unnest(v_ids, v_deltas) AS d(id, delta)
          JOIN credit_accounts a ON a.id = d.id
          WHERE a.kind <> 'consumed' ORDER BY a.id FOR NO KEY UPDATE OF a) AS l;
  -- After the locks, a statement of its own: a delete that held them has committed, and this one sees it.
  -- With it, the organizations whose own pools move (their copies of the pools are updated below).
  SELECT coalesce(sum(x.sinks), 0), coalesce(bool_or(x.sink_taken), false), coalesce(bool_or(x.deleted), false),
         array_agg(x.org ORDER BY x.depth, x.org) FILTER (WHERE x.shared <> 0 OR x.protected <> 0),
         array_agg(x.shared ORDER BY x.depth, x.org) FILTER (WHERE x.shared <> 0 OR x.protected <> 0),
         array_agg(x.protected ORDER BY x.depth, x.org) FILTER (WHERE x.shared <> 0 OR x.protected <> 0)
    INTO v_sinks, v_sink_taken, v_deleted, v_orgs, v_shared, v_protected
    FROM (SELECT a.organization_id AS org, min(o.depth) AS depth,
            count(*) FILTER (WHERE a.kind = 'consumed') AS sinks,
            bool_or(a.kind = 'consumed' AND d.delta < 0) AS sink_taken,
            bool_or(o.deleted_at IS NOT NULL) AS deleted,
            coalesce(sum(d.delta) FILTER (WHERE a.kind = 'shared'), 0)::bigint AS shared,
            coalesce(sum(d.delta) FILTER (WHERE a.kind = 'protected'), 0)::bigint AS protected
          FROM unnest(v_ids, v_deltas) AS d(id, delta) JOIN credit_accounts a ON a.id = d.id
          LEFT JOIN organizations o ON o.id = a.organization_id
          GROUP BY a.organization_id) x;
  IF v_locked + v_sinks <> cardinality(v_ids) THEN
    RAISE EXCEPTION 'unknown credit account' USING ERRCODE = 'CR006';
  END IF;
  IF v_sink_taken THEN
    RAISE EXCEPTION 'credits never come back from consumption' USING ERRCODE = 'CR006';
  END IF;
  IF v_deleted THEN
    RAISE EXCEPTION 'a pool of a deleted organization' USING ERRCODE = 'CR007';
  END IF;
  -- A membership (or invitation) receiving credits is held (key share) until this transaction ends, so that a
  -- removal cannot end it between this check and the commit (a removal locks it for update, then moves the
  -- balance back: it waits for these credits and moves them too). The organizations whose pools move are
  -- locked first, root first (locks.ts: accounts, organizations, memberships): a change of members holds its
  -- organization and then locks the membership for update.
  IF v_to_members THEN
    IF v_orgs IS NOT NULL THEN
      PERFORM 1 FROM unnest(v_orgs) AS v(id) JOIN organizations o ON o.id = v.id
        ORDER BY o.depth, o.id FOR NO KEY UPDATE OF o;
    END IF;
    PERFORM 1 FROM unnest(v_ids, v_deltas) AS d(id, delta) JOIN credit_accounts a ON a.id = d.id AND a.kind = 'user'
      JOIN memberships m ON m.user_id = a.user_id AND m.organization_id = a.organization_id
      WHERE d.delta > 0 ORDER BY m.user_id FOR KEY SHARE OF m;
    PERFORM 1 FROM unnest(v_ids, v_deltas) AS d(id, delta) JOIN credit_accounts a ON a.id = d.id AND a.kind = 'user'
      JOIN membership_invitations i ON i.user_id = a.user_id AND i.organization_id = a.organization_id
      WHERE d.delta > 0 ORDER BY i.user_id FOR KEY SHARE OF i;
    IF EXISTS (SELECT 1 FROM unnest(v_ids, v_deltas) AS d(id, delta) JOIN credit_accounts a ON a.id = d.id
               WHERE d.delta > 0 AND (a.kind = 'person' OR (a.kind = 'user'
                 AND NOT EXISTS (SELECT 1 FROM memberships m
                                 WHERE m.user_id = a.user_id AND m.organization_id = a.organization_id)
                 AND NOT EXISTS (SELECT 1 FROM membership_invitations i
                                 WHERE i.user_id = a.user_id AND i.organization_id = a.organization_id)))) THEN
      RAISE EXCEPTION 'credits go to a member''s balance only while they belong to the organization' USING ERRCODE = 'CR008';
    END IF;
  END IF;
  IF v_short IS NOT NULL THEN
    RAISE EXCEPTION 'credit account % would go below zero', v_short
      USING ERRCODE = 'CR001', DETAIL = v_short::text || ' ' || v_short_balance::text;
  END IF;

  -- The headers, with their ids (time-ordered, in the order of the postings).
  WITH ids AS MATERIALIZED (SELECT i, time_ordered_uuid() AS id FROM generate_series(1, v_count) AS i),
  headers AS (INSERT INTO credit_transactions (id, action, actor_id, description, created_at)
    SELECT ids.id, p_actions[ids.i], p_actors[ids.i], coalesce(p_descriptions[ids.i], ''), coalesce(p_created_at, now())
    FROM ids ORDER BY ids.i)
  SELECT array_agg(ids.id ORDER BY ids.i) INTO v_txs FROM ids;
  INSERT INTO credit_entries (transaction_id, account_id, amount)
    SELECT v_txs[l.p], l.account, l.amount
    FROM unnest(p_postings, p_accounts, p_amounts) WITH ORDINALITY AS l(p, account, amount, n)
    WHERE l.amount <> 0 ORDER BY l.n;

  -- The copies of the pools on their own organizations, locked root first (locks.ts) when there are several
  -- (with credits to members, already locked above).
  IF cardinality(v_orgs) > 1 AND NOT v_to_members THEN
    PERFORM 1 FROM unnest(v_orgs) AS v(id) JOIN organizations o ON o.id = v.id
      ORDER BY o.depth, o.id FOR NO KEY UPDATE OF o;
  END IF;
  IF v_orgs IS NOT NULL THEN
    UPDATE organizations o SET
        shared_credits = o.shared_credits + v.shared,
        protected_credits = o.protected_credits + v.protected
      FROM unnest(v_orgs, v_shared, v_protected) AS v(id, shared, protected)
      WHERE o.id = v.id;
  END IF;
  IF cardinality(p_report) > 0 THEN
    RETURN jsonb_build_object('id', v_txs[1], 'ids', to_jsonb(v_txs), 'balances', (
      SELECT coalesce(jsonb_object_agg(a.id, a.balance), '{}'::jsonb)
      FROM (SELECT DISTINCT id FROM unnest(p_report) AS r(id)) r JOIN credit_accounts a ON a.id = r.id));
  END IF;
  RETURN jsonb_build_object('id', v_txs[1], 'ids', to_jsonb(v_txs), 'balances', '{}'::jsonb);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION credit_entries_apply() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_accounts uuid[];
  v_deltas bigint[];
  v_foreign boolean;
BEGIN
  -- The headers are probed by their keys, `= ANY` of an array: a join with the lines, its plan made once per
  -- connection, read the whole journal through its key's index.
  SELECT (SELECT count(*) FROM credit_transactions t
          WHERE t.id = ANY (x.txs) AND t.xact = pg_current_xact_id()::text::bigint) <> cardinality(x.txs),
         x.accounts, x.deltas
    INTO v_foreign, v_accounts, v_deltas
    FROM (SELECT (SELECT array_agg(DISTINCT transaction_id) FROM new_entries) AS txs,
                 array_agg(d.account_id ORDER BY d.account_id) AS accounts,
                 array_agg(d.delta ORDER BY d.account_id) AS deltas
          FROM (SELECT account_id, sum(amount)::bigint AS delta FROM new_entries GROUP BY account_id) d) x;
  IF v_foreign THEN
    RAISE EXCEPTION 'entries need a journal transaction written by this database transaction' USING ERRCODE = 'CR005';
  END IF;
  UPDATE credit_accounts a SET balance = a.balance + d.delta
    FROM unnest(v_accounts, v_deltas) AS d(id, delta)
    WHERE a.id = ANY (v_accounts) AND a.id = d.id AND a.kind <> 'consumed';
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Migrations run in one transaction: an earlier one that posted (0020) leaves its balance checks pending, and a
-- table with pending trigger events cannot be altered. They run now (every deferred check is initially deferred,
-- and is again after).
SET CONSTRAINTS ALL IMMEDIATE;
--> statement-breakpoint
ALTER TABLE "credit_entries" DROP CONSTRAINT "credit_entries_transaction_id_credit_transactions_id_fk";
--> statement-breakpoint
SET CONSTRAINTS ALL DEFERRED;
