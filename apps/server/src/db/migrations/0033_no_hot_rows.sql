-- The classroom product at network scale (issue 31, docs/decisions/016-consumption-at-scale.md): no row that
-- every consumption of one network must lock or write.
--
-- 1. The pools below an organization (`subtree_credits`, updated by every posting for every ancestor up to the
--    root: one queue per network) are kept by the roll-up job in `subtree_pool_credits`, like the members'
--    credits of migration 0020. A reader adds the journal lines still queued for the roll-up
--    (`subtree_pool_credits_of`): the figure is exact when read. The start: the pools below less those queued
--    lines, which the roll-up adds when it claims them.
CREATE TABLE "subtree_pool_credits" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"credits" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO subtree_pool_credits (organization_id, credits)
  SELECT c.ancestor_id, sum(a.balance - coalesce(q.queued, 0))
  FROM credit_accounts a
  JOIN organization_closure c ON c.descendant_id = a.organization_id AND c.depth > 0
  LEFT JOIN (SELECT e.account_id, sum(e.amount) AS queued FROM credit_usage_queue u
             JOIN credit_entries e ON e.transaction_id = u.transaction_id GROUP BY e.account_id) q ON q.account_id = a.id
  WHERE a.kind IN ('shared', 'protected')
  GROUP BY c.ancestor_id
  HAVING sum(a.balance - coalesce(q.queued, 0)) <> 0;
--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "subtree_credits";
--> statement-breakpoint
-- The pools strictly below an organization, exact in the reader's snapshot: the roll-up claims queued lines and
-- adds them in one transaction, so a statement sees each line either queued or counted, never both.
CREATE FUNCTION subtree_pool_credits_of(p_org uuid) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT (coalesce((SELECT s.credits FROM subtree_pool_credits s WHERE s.organization_id = p_org), 0)
    + coalesce((SELECT sum(e.amount) FROM credit_usage_queue q
        JOIN credit_entries e ON e.transaction_id = q.transaction_id
        JOIN credit_accounts a ON a.id = e.account_id AND a.kind IN ('shared', 'protected')
        JOIN organization_closure c ON c.descendant_id = a.organization_id AND c.ancestor_id = p_org AND c.depth > 0), 0))::bigint
$$;
--> statement-breakpoint
-- 2. An organization's `consumed` account keeps no balance: every consumption of a school would otherwise lock
--    and update the one row. What it received is the sum of its entries (the roll-up counts it per day). Its
--    lines may only add (credits never come back from consumption): checked by the posting function.
ALTER TABLE credit_accounts DISABLE TRIGGER credit_accounts_guard;
--> statement-breakpoint
UPDATE credit_accounts SET balance = 0 WHERE kind = 'consumed' AND balance <> 0;
--> statement-breakpoint
ALTER TABLE credit_accounts ENABLE TRIGGER credit_accounts_guard;
--> statement-breakpoint
-- The lookups go by the ids (`= ANY`): a join with the transition table was planned as a scan of the journal
-- (0.24 ms a consumption at 2,000 journal transactions, growing with the journal).
CREATE OR REPLACE FUNCTION credit_entries_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_txs uuid[];
  v_accounts uuid[];
  v_deltas bigint[];
BEGIN
  SELECT array_agg(DISTINCT transaction_id) INTO v_txs FROM new_entries;
  IF (SELECT count(*) FROM credit_transactions t
      WHERE t.id = ANY (v_txs) AND t.xact = pg_current_xact_id()::text::bigint) <> cardinality(v_txs) THEN
    RAISE EXCEPTION 'entries belong to a journal transaction written by another database transaction' USING ERRCODE = 'CR005';
  END IF;
  SELECT array_agg(account_id ORDER BY account_id), array_agg(delta ORDER BY account_id) INTO v_accounts, v_deltas
    FROM (SELECT account_id, sum(amount)::bigint AS delta FROM new_entries GROUP BY account_id) d;
  UPDATE credit_accounts a SET balance = a.balance + d.delta
    FROM unnest(v_accounts, v_deltas) AS d(id, delta)
    WHERE a.id = ANY (v_accounts) AND a.id = d.id AND a.kind <> 'consumed';
  RETURN NULL;
END $$;
--> statement-breakpoint
-- 3. The daily consumption counter of an organization is spread over 16 rows a day (`slot`, from the teacher's
--    id): without a daily limit, consumptions of one school do not queue on one row. With a limit, a
--    consumption holds the organization's advisory lock while it sums the slots (consume-service.ts).
ALTER TABLE "consumption_days" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "consumption_days" DROP CONSTRAINT "consumption_days_organization_id_day_pk";
--> statement-breakpoint
ALTER TABLE "consumption_days" ADD CONSTRAINT "consumption_days_organization_id_day_slot_pk" PRIMARY KEY("organization_id","day","slot");
--> statement-breakpoint
ALTER TABLE "consumption_days" ADD CONSTRAINT "consumption_days_slot_check" CHECK ("consumption_days"."slot" between 0 and 15);
--> statement-breakpoint
-- 4. The posting function posts several journal transactions at once (a batch of consumptions: one lock of
--    each account, one insert of the headers, one of the lines, one update of the balances). Every rule of
--    migrations 0011–0020 stays: accounts locked in id order (consumed accounts are not locked: they keep no
--    balance), CR007, CR008, no balance below zero (checked on the whole set: the lines of a set that takes
--    from an account only take, as a batch of consumptions does), each transaction balanced (CR004). Only the
--    organizations whose own pools move are updated (their copies), no ancestor. With credits to members'
--    balances, those organizations are locked right after the accounts, before the memberships receiving the
--    credits are held (locks.ts: accounts, organizations, memberships): a change of members holds its
--    organization and then locks the membership for update (test/credits/lock-order.test.ts).
CREATE FUNCTION post_credit_transactions(p_actions text[], p_actors uuid[], p_descriptions text[],
  p_postings integer[], p_accounts uuid[], p_amounts bigint[], p_report uuid[] DEFAULT '{}',
  p_created_at timestamptz DEFAULT NULL)
RETURNS jsonb LANGUAGE plpgsql AS $$
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

  SELECT array_agg(gen_random_uuid()) INTO v_txs FROM generate_series(1, v_count);
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
-- The one-transaction posting of before, now a set of one.
DROP FUNCTION post_credit_transaction(text, uuid, text, uuid[], bigint[], uuid[], timestamptz);
--> statement-breakpoint
CREATE FUNCTION post_credit_transaction(p_action text, p_actor uuid, p_description text, p_accounts uuid[],
  p_amounts bigint[], p_report uuid[] DEFAULT '{}', p_created_at timestamptz DEFAULT NULL)
RETURNS jsonb LANGUAGE sql AS $$
  SELECT post_credit_transactions(ARRAY[p_action], ARRAY[p_actor], ARRAY[p_description],
    array_fill(1, ARRAY[coalesce(cardinality(p_accounts), 0)]), p_accounts, p_amounts, p_report, p_created_at)
$$;
