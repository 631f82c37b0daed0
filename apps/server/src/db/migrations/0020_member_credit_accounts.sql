-- Credits per membership (CONTRACT §5, issue 30, docs/decisions/006-credits.md "Credits per membership").
-- A member's balance is an account of (person, organization): kind 'user' with both ids. The one balance per
-- person of before becomes kind 'person', closed: it only gives. The split below moves every person's credits
-- to the memberships of the organizations that gave them, replaying the journal, each move a posting of the
-- journal like any other.
ALTER TABLE "credit_accounts" DROP CONSTRAINT "credit_accounts_owner_check";--> statement-breakpoint
ALTER TABLE "credit_accounts" DROP CONSTRAINT "credit_accounts_kind_check";--> statement-breakpoint
DROP INDEX "credit_accounts_user_key";--> statement-breakpoint
DROP INDEX "credit_accounts_org_kind_key";--> statement-breakpoint
UPDATE "credit_accounts" SET "kind" = 'person' WHERE "kind" = 'user';--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_kind_check" CHECK ("credit_accounts"."kind" in ('shared','protected','user','system','consumed','person'));--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_owner_check" CHECK (("credit_accounts"."kind" in ('shared','protected','consumed') and "credit_accounts"."organization_id" is not null and "credit_accounts"."user_id" is null)
        or ("credit_accounts"."kind" = 'user' and "credit_accounts"."user_id" is not null and "credit_accounts"."organization_id" is not null)
        or ("credit_accounts"."kind" = 'person' and "credit_accounts"."user_id" is not null and "credit_accounts"."organization_id" is null)
        or ("credit_accounts"."kind" = 'system' and "credit_accounts"."user_id" is null and "credit_accounts"."organization_id" is null));--> statement-breakpoint
CREATE UNIQUE INDEX "credit_accounts_org_kind_key" ON "credit_accounts" USING btree ("organization_id","kind") WHERE "credit_accounts"."kind" in ('shared','protected','consumed');--> statement-breakpoint
CREATE UNIQUE INDEX "credit_accounts_member_key" ON "credit_accounts" USING btree ("organization_id","user_id") WHERE "credit_accounts"."kind" = 'user';--> statement-breakpoint
CREATE UNIQUE INDEX "credit_accounts_person_key" ON "credit_accounts" USING btree ("user_id") WHERE "credit_accounts"."kind" = 'person';--> statement-breakpoint
CREATE INDEX "credit_accounts_user_idx" ON "credit_accounts" USING btree ("user_id") WHERE "credit_accounts"."user_id" is not null;--> statement-breakpoint
-- The posting function of migration 0016 with one more rule (CR008): credits go into a member's balance only
-- while the person is a member of that organization or invited to it, and never into a closed 'person' balance.
-- Checked after the locks, in a statement of its own: a removal that held the account or the membership has
-- committed, and this statement sees the membership gone. Pools: only shared and protected accounts move the organizations' figures.
CREATE OR REPLACE FUNCTION post_credit_transaction(p_action text, p_actor uuid, p_description text, p_accounts uuid[],
  p_amounts bigint[], p_report uuid[] DEFAULT '{}', p_created_at timestamptz DEFAULT NULL)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_ids uuid[];
  v_deltas bigint[];
  v_locked integer;
  v_short record;
  v_tx uuid;
  v_orgs uuid[];
  v_below bigint[];
  v_shared bigint[];
  v_protected bigint[];
BEGIN
  IF p_accounts IS NULL OR p_amounts IS NULL OR cardinality(p_accounts) <> cardinality(p_amounts)
     OR array_position(p_accounts, NULL) IS NOT NULL OR array_position(p_amounts, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'a posting needs one amount per account' USING ERRCODE = 'CR006';
  END IF;
  SELECT array_agg(account ORDER BY account), array_agg(delta ORDER BY account) INTO v_ids, v_deltas
    FROM (SELECT account, sum(amount)::bigint AS delta FROM unnest(p_accounts, p_amounts) AS l(account, amount)
          WHERE amount <> 0 GROUP BY account) d;
  IF v_ids IS NULL THEN
    RAISE EXCEPTION 'a credit transaction needs lines' USING ERRCODE = 'CR006';
  END IF;
  IF (SELECT sum(amount) FROM unnest(p_amounts) AS amount) <> 0 THEN
    RAISE EXCEPTION 'a credit transaction must sum to zero' USING ERRCODE = 'CR004';
  END IF;

  -- Joins with unnest rather than `= ANY`: the bulk mint of seed:scale posts 200,010 lines in one call.
  SELECT count(*) INTO v_locked FROM (
    SELECT a.id FROM unnest(v_ids) AS d(id) JOIN credit_accounts a ON a.id = d.id
    ORDER BY a.id FOR NO KEY UPDATE OF a) AS l;
  IF v_locked <> cardinality(v_ids) THEN
    RAISE EXCEPTION 'unknown credit account' USING ERRCODE = 'CR006';
  END IF;
  -- After the locks: a delete that held them has committed, and this statement sees it.
  IF EXISTS (SELECT 1 FROM unnest(v_ids) AS d(id) JOIN credit_accounts a ON a.id = d.id
             JOIN organizations o ON o.id = a.organization_id WHERE o.deleted_at IS NOT NULL) THEN
    RAISE EXCEPTION 'a pool of a deleted organization' USING ERRCODE = 'CR007';
  END IF;
  -- A membership (or invitation) receiving credits is held (key share) until this transaction ends, so that a
  -- removal cannot end it between this check and the commit (a removal locks it for update, then moves the
  -- balance back: it waits for these credits and moves them too).
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
  SELECT a.id, a.balance INTO v_short FROM credit_accounts a JOIN unnest(v_ids, v_deltas) AS d(id, delta) ON d.id = a.id
    WHERE a.kind <> 'system' AND a.balance + d.delta < 0 ORDER BY a.id LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'credit account % would go below zero', v_short.id
      USING ERRCODE = 'CR001', DETAIL = v_short.id::text || ' ' || v_short.balance::text;
  END IF;

  INSERT INTO credit_transactions (action, actor_id, description, created_at)
    VALUES (p_action, p_actor, coalesce(p_description, ''), coalesce(p_created_at, now())) RETURNING id INTO v_tx;
  INSERT INTO credit_entries (transaction_id, account_id, amount)
    SELECT v_tx, account, amount FROM unnest(p_accounts, p_amounts) AS l(account, amount) WHERE amount <> 0;

  WITH pool AS (
    SELECT a.organization_id AS org,
      coalesce(sum(d.delta) FILTER (WHERE a.kind = 'shared'), 0) AS shared,
      coalesce(sum(d.delta) FILTER (WHERE a.kind = 'protected'), 0) AS protected
    FROM credit_accounts a JOIN unnest(v_ids, v_deltas) AS d(id, delta) ON d.id = a.id
    WHERE a.kind IN ('shared', 'protected') GROUP BY a.organization_id),
  changes AS (
    SELECT org AS id, 0::numeric AS below, shared, protected FROM pool
    UNION ALL
    SELECT c.ancestor_id, pool.shared + pool.protected, 0, 0
      FROM pool JOIN organization_closure c ON c.descendant_id = pool.org AND c.depth > 0),
  summed AS (
    SELECT id, sum(below)::bigint AS below, sum(shared)::bigint AS shared, sum(protected)::bigint AS protected
    FROM changes GROUP BY id)
  SELECT array_agg(id ORDER BY id), array_agg(below ORDER BY id), array_agg(shared ORDER BY id), array_agg(protected ORDER BY id)
    INTO v_orgs, v_below, v_shared, v_protected
    FROM summed WHERE below <> 0 OR shared <> 0 OR protected <> 0;
  IF v_orgs IS NOT NULL THEN
    PERFORM 1 FROM unnest(v_orgs) AS v(id) JOIN organizations o ON o.id = v.id
      ORDER BY o.depth, o.id FOR NO KEY UPDATE OF o;
    UPDATE organizations o SET
        subtree_credits = o.subtree_credits + v.below,
        shared_credits = o.shared_credits + v.shared,
        protected_credits = o.protected_credits + v.protected
      FROM unnest(v_orgs, v_below, v_shared, v_protected) AS v(id, below, shared, protected)
      WHERE o.id = v.id;
  END IF;
  RETURN jsonb_build_object('id', v_tx, 'balances', (
    SELECT coalesce(jsonb_object_agg(a.id, a.balance), '{}'::jsonb)
    FROM (SELECT DISTINCT id FROM unnest(p_report) AS r(id)) r JOIN credit_accounts a ON a.id = r.id));
END $$;
--> statement-breakpoint
-- CR009, checked at commit: a membership (or invitation) that ends leaves no credits on its balance; the code
-- that ends it moves them back in the same transaction (removal: the organization's shared pool; delete: the
-- parent's). Accepting an invitation ends the invitation and starts the membership: at commit the balance
-- has a membership again, and passes.
CREATE FUNCTION member_balance_left_behind() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM credit_accounts a
             WHERE a.kind = 'user' AND a.user_id = OLD.user_id AND a.organization_id = OLD.organization_id
               AND a.balance <> 0)
     AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = OLD.user_id AND m.organization_id = OLD.organization_id)
     AND NOT EXISTS (SELECT 1 FROM membership_invitations i WHERE i.user_id = OLD.user_id AND i.organization_id = OLD.organization_id) THEN
    RAISE EXCEPTION 'a membership of % in % ended with credits on its balance', OLD.user_id, OLD.organization_id
      USING ERRCODE = 'CR009';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER memberships_balance_returned AFTER DELETE ON memberships
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION member_balance_left_behind();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER membership_invitations_balance_returned AFTER DELETE ON membership_invitations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION member_balance_left_behind();
--> statement-breakpoint
-- The split. Replays every journal transaction that touched a person's balance, in order, keeping each
-- balance as lots by the organization that gave them (`origin`; null: minted straight to the person).
-- Credits a person gives away leave their lots: into organization X's accounts (a reclaim, a removal, a
-- consumption at X), X's lots first, then the oldest; to another person (a transfer), the oldest lots first,
-- and the receiver gets those lots with their origins. Ties between lots of the same age: the organization id.
CREATE TEMPORARY TABLE split_lots (
  id bigserial PRIMARY KEY, account uuid NOT NULL, origin uuid, seq bigint NOT NULL, amount bigint NOT NULL
) ON COMMIT DROP;
--> statement-breakpoint
CREATE INDEX ON split_lots (account);
--> statement-breakpoint
CREATE TEMPORARY TABLE split_moving (id bigserial PRIMARY KEY, origin uuid, amount bigint NOT NULL) ON COMMIT DROP;
--> statement-breakpoint
CREATE FUNCTION allot_split_replay() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t record;
  line record;
  lot record;
  parcel record;
  v_to_org uuid;
  v_from_org uuid;
  v_left bigint;
  v_take bigint;
BEGIN
  FOR t IN SELECT DISTINCT tr.id, tr.seq FROM credit_transactions tr
             JOIN credit_entries e ON e.transaction_id = tr.id
             JOIN credit_accounts a ON a.id = e.account_id AND a.kind = 'person'
           ORDER BY tr.seq LOOP
    DELETE FROM split_moving;
    -- Where credits went (an organization's accounts credited) and where they came from (debited).
    SELECT min(a.organization_id::text)::uuid INTO v_to_org FROM credit_entries e
      JOIN credit_accounts a ON a.id = e.account_id
      WHERE e.transaction_id = t.id AND e.amount > 0 AND a.organization_id IS NOT NULL;
    SELECT min(a.organization_id::text)::uuid INTO v_from_org FROM credit_entries e
      JOIN credit_accounts a ON a.id = e.account_id
      WHERE e.transaction_id = t.id AND e.amount < 0 AND a.organization_id IS NOT NULL;
    FOR line IN SELECT e.account_id, -e.amount AS amount FROM credit_entries e
                  JOIN credit_accounts a ON a.id = e.account_id AND a.kind = 'person'
                WHERE e.transaction_id = t.id AND e.amount < 0 ORDER BY e.id LOOP
      v_left := line.amount;
      FOR lot IN SELECT l.id, l.origin, l.amount FROM split_lots l
                 WHERE l.account = line.account_id AND l.amount > 0
                 ORDER BY (v_to_org IS NOT NULL AND l.origin IS NOT DISTINCT FROM v_to_org) DESC, l.seq, l.origin, l.id LOOP
        v_take := least(v_left, lot.amount);
        UPDATE split_lots SET amount = amount - v_take WHERE id = lot.id;
        INSERT INTO split_moving (origin, amount) VALUES (lot.origin, v_take);
        v_left := v_left - v_take;
        EXIT WHEN v_left = 0;
      END LOOP;
      IF v_left > 0 THEN
        RAISE EXCEPTION 'credit split: account % gave more than its journal gave it', line.account_id;
      END IF;
    END LOOP;
    FOR line IN SELECT e.account_id, e.amount FROM credit_entries e
                  JOIN credit_accounts a ON a.id = e.account_id AND a.kind = 'person'
                WHERE e.transaction_id = t.id AND e.amount > 0 ORDER BY e.id LOOP
      v_left := line.amount;
      -- From another person: their lots, oldest first.
      FOR parcel IN SELECT id, origin, amount FROM split_moving WHERE amount > 0 ORDER BY id LOOP
        v_take := least(v_left, parcel.amount);
        UPDATE split_moving SET amount = amount - v_take WHERE id = parcel.id;
        INSERT INTO split_lots (account, origin, seq, amount) VALUES (line.account_id, parcel.origin, t.seq, v_take);
        v_left := v_left - v_take;
        EXIT WHEN v_left = 0;
      END LOOP;
      -- From an organization's pool (or minted): a lot of that organization.
      IF v_left > 0 THEN
        INSERT INTO split_lots (account, origin, seq, amount) VALUES (line.account_id, v_from_org, t.seq, v_left);
      END IF;
    END LOOP;
  END LOOP;
  IF EXISTS (SELECT 1 FROM credit_accounts a
             LEFT JOIN (SELECT account, sum(amount) AS held FROM split_lots GROUP BY account) s ON s.account = a.id
             WHERE a.kind = 'person' AND a.balance <> coalesce(s.held, 0)) THEN
    RAISE EXCEPTION 'credit split: the replayed lots do not add up to the balances';
  END IF;
END $$;
--> statement-breakpoint
SELECT allot_split_replay();
--> statement-breakpoint
DROP FUNCTION allot_split_replay();
--> statement-breakpoint
-- Each person's lots by where they go: a membership of the giving organization; credits of an organization the
-- person no longer belongs to back to its shared pool (as a removal would have done), of a deleted organization
-- to its nearest live ancestor's shared pool (as its delete did with its pools), with no live ancestor to the
-- system account (as a root's delete does); minted credits, and any without a place, to the person's main
-- membership: the one that gave them most (then the oldest, then the organization id).
CREATE FUNCTION allot_split_post() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  p record;
  part record;
  v_main uuid;
  v_system uuid;
  v_account uuid;
  v_target uuid;
  v_live uuid;
  v_name text;
BEGIN
  INSERT INTO credit_accounts (kind) VALUES ('system') ON CONFLICT DO NOTHING;
  SELECT id INTO v_system FROM credit_accounts WHERE kind = 'system';
  FOR p IN SELECT a.id, a.user_id, u.name FROM credit_accounts a JOIN users u ON u.id = a.user_id
           WHERE a.kind = 'person' ORDER BY a.id LOOP
    SELECT m.organization_id INTO v_main FROM memberships m
      JOIN organizations o ON o.id = m.organization_id AND o.deleted_at IS NULL
      LEFT JOIN (SELECT origin, sum(amount) AS held FROM split_lots WHERE account = p.id GROUP BY origin) s
        ON s.origin = m.organization_id
      WHERE m.user_id = p.user_id
      ORDER BY coalesce(s.held, 0) DESC, m.created_at, m.organization_id LIMIT 1;
    FOR part IN SELECT origin, sum(amount)::bigint AS amount FROM split_lots
                WHERE account = p.id AND amount > 0 GROUP BY origin ORDER BY origin NULLS FIRST LOOP
      IF part.origin IS NULL THEN
        v_target := v_main;
      ELSIF EXISTS (
           SELECT 1 FROM memberships m JOIN organizations o ON o.id = m.organization_id AND o.deleted_at IS NULL
           WHERE m.user_id = p.user_id AND m.organization_id = part.origin) THEN
        v_target := part.origin;
      ELSE
        v_target := NULL;
      END IF;
      IF v_target IS NOT NULL THEN
        INSERT INTO credit_accounts (kind, user_id, organization_id) VALUES ('user', p.user_id, v_target)
          ON CONFLICT DO NOTHING;
        SELECT id INTO v_account FROM credit_accounts
          WHERE kind = 'user' AND user_id = p.user_id AND organization_id = v_target;
        SELECT name INTO v_name FROM organizations WHERE id = v_target;
        PERFORM post_credit_transaction('transfer_users', NULL,
          format('%s credits of %s held in %s from now on (credits per membership)', part.amount, p.name, v_name),
          ARRAY[p.id, v_account], ARRAY[-part.amount, part.amount]);
      ELSIF part.origin IS NOT NULL THEN
        -- The giving organization, or its nearest live ancestor-or-self.
        WITH RECURSIVE up(id, parent_id, deleted_at, n) AS (
          SELECT id, parent_id, deleted_at, 0 FROM organizations WHERE id = part.origin
          UNION ALL
          SELECT o.id, o.parent_id, o.deleted_at, up.n + 1 FROM up JOIN organizations o ON o.id = up.parent_id
          WHERE up.deleted_at IS NOT NULL)
        SELECT id INTO v_live FROM up WHERE deleted_at IS NULL ORDER BY n LIMIT 1;
        IF v_live IS NOT NULL THEN
          SELECT id INTO v_account FROM credit_accounts WHERE organization_id = v_live AND kind = 'shared';
          SELECT name INTO v_name FROM organizations WHERE id = v_live;
          PERFORM post_credit_transaction(
            CASE WHEN v_live = part.origin THEN 'reclaim_users' ELSE 'organization_deleted' END, NULL,
            CASE WHEN v_live = part.origin
              THEN format('%s credits %s held from %s went back to its shared pool: %s no longer belongs to it (credits per membership)', part.amount, p.name, v_name, p.name)
              ELSE format('%s credits %s held from a deleted organization went back to %s''s shared pool (credits per membership)', part.amount, p.name, v_name) END,
            ARRAY[p.id, v_account], ARRAY[-part.amount, part.amount]);
        ELSE
          PERFORM post_credit_transaction('organization_deleted', NULL,
            format('%s credits %s held from a deleted organization went back (credits per membership)', part.amount, p.name),
            ARRAY[p.id, v_system], ARRAY[-part.amount, part.amount]);
        END IF;
      ELSE
        -- Minted to a person who belongs nowhere: back to the system account that minted them.
        PERFORM post_credit_transaction('organization_deleted', NULL,
          format('%s credits %s held outside any organization went back (credits per membership)', part.amount, p.name),
          ARRAY[p.id, v_system], ARRAY[-part.amount, part.amount]);
      END IF;
    END LOOP;
  END LOOP;
END $$;
--> statement-breakpoint
SELECT allot_split_post();
--> statement-breakpoint
DROP FUNCTION allot_split_post();
--> statement-breakpoint
-- Members' credits of a subtree, kept by the roll-up from the journal's lines on members' balances (decision
-- 014, "Members' credits"): a balance now belongs to one organization, so the lines say where it is, and the
-- membership triggers and the count per person of migration 0017 have nothing left to do. The figure starts
-- from the balances less the lines still queued for the roll-up (it adds those when it claims them).
DROP TRIGGER memberships_member_credits_insert ON memberships;--> statement-breakpoint
DROP TRIGGER memberships_member_credits_delete ON memberships;--> statement-breakpoint
DROP TRIGGER memberships_member_credits_update ON memberships;--> statement-breakpoint
DROP FUNCTION member_credits_enqueue();--> statement-breakpoint
DROP TABLE member_credits_queue;--> statement-breakpoint
DROP TABLE member_credits_counted;--> statement-breakpoint
DELETE FROM subtree_member_credits;--> statement-breakpoint
INSERT INTO subtree_member_credits (organization_id, credits)
  SELECT c.ancestor_id, sum(a.balance - coalesce(q.queued, 0))
  FROM credit_accounts a
  JOIN organization_closure c ON c.descendant_id = a.organization_id
  LEFT JOIN (SELECT e.account_id, sum(e.amount) AS queued FROM credit_usage_queue u
             JOIN credit_entries e ON e.transaction_id = u.transaction_id GROUP BY e.account_id) q ON q.account_id = a.id
  WHERE a.kind = 'user'
  GROUP BY c.ancestor_id
  HAVING sum(a.balance - coalesce(q.queued, 0)) <> 0;
