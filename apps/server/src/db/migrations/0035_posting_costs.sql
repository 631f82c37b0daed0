-- What a posting costs PostgreSQL (issue 32, decisions 006 and 016).
--
-- 1. Plans made once per connection. PL/pgSQL plans a statement with its values for its first five runs and
--    keeps doing so when the generic plan's estimate is higher, which it is for every statement over `unnest`
--    of the function's arrays: each posting planned about fifteen statements again, more than half of its
--    time in PostgreSQL (0.93 → 0.41 ms for a consumption, 1.15 → 0.53 ms for a transfer, statement by
--    statement with pg_stat_statements). A plan made once must stay right while the journal grows: one made
--    when `credit_transactions` held a few rows scanned the whole table at each posting (13,000 rows read a
--    posting after a few thousand transfers). Every statement of the posting function, the balance trigger and
--    the balance check at COMMIT looks rows up by their keys, so sequential scans are off inside them: the
--    plans probe the indexes whatever the tables' sizes were when planned. The bulk mint of seed:scale (200,010
--    lines in one call) takes about twice as long this way (12 → 24 s), which a seed can afford.
--
-- 2. Time-ordered ids for the journal's transactions and the audit entries (the layout of UUID version 7: the
--    milliseconds first, then random bits). A random id sends each insert to a random page of its indexes
--    (the transactions' key, the lines' `transaction_id`, the audit entries' key): right after a checkpoint
--    each of those pages is written whole to the WAL (6.6 KB of full pages a transfer, measured with
--    pg_walinspect), and a large journal reads a random page per insert. Ordered by time, the inserts fill the
--    right edge of each index.
--
-- 3. `credit_transactions_created_idx` goes: no query reads the journal by date alone (the credit log goes
--    from an organization's accounts to their lines; the roll-up by the queue), and each posting paid for it.
CREATE FUNCTION time_ordered_uuid() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
    52, 1), 53, 1), 'hex')::uuid
$$;
--> statement-breakpoint
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
  -- Each posting: in range, with lines, summing to zero. One pass over the lines.
  SELECT count(*) FILTER (WHERE g.p BETWEEN 1 AND v_count AND g.lines > 0), coalesce(bool_or(g.total <> 0), false),
         coalesce(bool_or(g.p < 1 OR g.p > v_count), false)
    INTO v_with_lines, v_unbalanced, v_deleted
    FROM (SELECT l.p, count(*) FILTER (WHERE l.amount <> 0) AS lines, sum(l.amount) AS total
          FROM unnest(p_postings, p_amounts) AS l(p, amount) GROUP BY l.p) g;
  IF v_deleted THEN
    RAISE EXCEPTION 'a posting needs one amount per account' USING ERRCODE = 'CR006';
  END IF;
  IF v_with_lines <> v_count THEN
    RAISE EXCEPTION 'a credit transaction needs lines' USING ERRCODE = 'CR006';
  END IF;
  IF v_unbalanced THEN
    RAISE EXCEPTION 'a credit transaction must sum to zero' USING ERRCODE = 'CR004';
  END IF;
  SELECT array_agg(account ORDER BY account), array_agg(delta ORDER BY account) INTO v_ids, v_deltas
    FROM (SELECT account, sum(amount)::bigint AS delta FROM unnest(p_accounts, p_amounts) AS l(account, amount)
          WHERE amount <> 0 GROUP BY account) d;

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
  SELECT count(*) FILTER (WHERE a.kind = 'consumed'), coalesce(bool_or(a.kind = 'consumed' AND d.delta < 0), false),
         coalesce(bool_or(o.deleted_at IS NOT NULL), false)
    INTO v_sinks, v_sink_taken, v_deleted
    FROM unnest(v_ids, v_deltas) AS d(id, delta) JOIN credit_accounts a ON a.id = d.id
    LEFT JOIN organizations o ON o.id = a.organization_id;
  IF v_locked + v_sinks <> cardinality(v_ids) THEN
    RAISE EXCEPTION 'unknown credit account' USING ERRCODE = 'CR006';
  END IF;
  IF v_sink_taken THEN
    RAISE EXCEPTION 'credits never come back from consumption' USING ERRCODE = 'CR006';
  END IF;
  IF v_deleted THEN
    RAISE EXCEPTION 'a pool of a deleted organization' USING ERRCODE = 'CR007';
  END IF;
  -- The organizations whose own pools move (their copies of the pools are updated below).
  SELECT array_agg(org ORDER BY depth, org), array_agg(shared ORDER BY depth, org), array_agg(protected ORDER BY depth, org)
    INTO v_orgs, v_shared, v_protected
    FROM (SELECT a.organization_id AS org, min(o.depth) AS depth,
            coalesce(sum(d.delta) FILTER (WHERE a.kind = 'shared'), 0)::bigint AS shared,
            coalesce(sum(d.delta) FILTER (WHERE a.kind = 'protected'), 0)::bigint AS protected
          FROM credit_accounts a JOIN unnest(v_ids, v_deltas) AS d(id, delta) ON d.id = a.id
          JOIN organizations o ON o.id = a.organization_id
          WHERE a.kind IN ('shared', 'protected') GROUP BY a.organization_id) pool
    WHERE shared <> 0 OR protected <> 0;
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

  SELECT array_agg(time_ordered_uuid()) INTO v_txs FROM generate_series(1, v_count);
  INSERT INTO credit_transactions (id, action, actor_id, description, created_at)
    SELECT v_txs[i], p_actions[i], p_actors[i], coalesce(p_descriptions[i], ''), coalesce(p_created_at, now())
    FROM generate_series(1, v_count) AS i ORDER BY i;
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
ALTER FUNCTION credit_entries_apply() SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION credit_entries_apply() SET enable_seqscan = off;
--> statement-breakpoint
-- The check at COMMIT that each journal transaction balances reads its lines by `transaction_id`: planned while
-- the journal was small, it read the whole of it at every commit.
ALTER FUNCTION credit_transaction_balanced() SET enable_seqscan = off;
--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "id" SET DEFAULT time_ordered_uuid();
--> statement-breakpoint
DROP INDEX "credit_transactions_created_idx";
