CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "credit_transactions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD COLUMN "xact" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_transactions_seq_key" ON "credit_transactions" USING btree ("seq");--> statement-breakpoint
-- The ledger's rules, held by the database (docs/decisions/006-credits.md). SQLSTATEs of class CR:
-- CR001 a balance would go below zero (detail: account id, its balance), CR002 a balance written outside
-- the journal, CR003 the journal is append-only, CR004 a transaction that does not balance, CR005 entries
-- added to another database transaction's journal transaction, CR006 a malformed posting, CR007 a pool of
-- a deleted organization.
CREATE FUNCTION credit_accounts_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.balance <> 0 THEN
    RAISE EXCEPTION 'a credit account opens at 0: credits arrive through the journal' USING ERRCODE = 'CR002';
  END IF;
  -- Depth 1 is a statement of its own; the journal's entries trigger (credit_entries_apply) runs at depth 2.
  IF TG_OP = 'UPDATE' AND NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'only the credit journal changes a balance (post_credit_transaction)' USING ERRCODE = 'CR002';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER credit_accounts_guard BEFORE INSERT OR UPDATE ON credit_accounts
  FOR EACH ROW EXECUTE FUNCTION credit_accounts_guard();
--> statement-breakpoint
CREATE FUNCTION credit_journal_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The one update allowed: an account deleted later leaves its transactions without an actor (ON DELETE SET NULL).
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'credit_transactions' THEN
    IF NEW.actor_id IS NULL
       AND (NEW.id, NEW.action, NEW.description, NEW.created_at, NEW.seq, NEW.xact)
         IS NOT DISTINCT FROM (OLD.id, OLD.action, OLD.description, OLD.created_at, OLD.seq, OLD.xact) THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'the credit journal is append-only: % of % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'CR003';
END $$;
--> statement-breakpoint
CREATE TRIGGER credit_transactions_append_only BEFORE UPDATE OR DELETE ON credit_transactions
  FOR EACH ROW EXECUTE FUNCTION credit_journal_append_only();
--> statement-breakpoint
CREATE TRIGGER credit_transactions_no_truncate BEFORE TRUNCATE ON credit_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION credit_journal_append_only();
--> statement-breakpoint
CREATE TRIGGER credit_entries_append_only BEFORE UPDATE OR DELETE ON credit_entries
  FOR EACH ROW EXECUTE FUNCTION credit_journal_append_only();
--> statement-breakpoint
CREATE TRIGGER credit_entries_no_truncate BEFORE TRUNCATE ON credit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION credit_journal_append_only();
--> statement-breakpoint
-- Entries move the balances: a balance is, by construction, the sum of its entries.
CREATE FUNCTION credit_entries_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_entries e JOIN credit_transactions t ON t.id = e.transaction_id
             WHERE t.xact <> pg_current_xact_id()::text::bigint) THEN
    RAISE EXCEPTION 'entries belong to a journal transaction written by another database transaction' USING ERRCODE = 'CR005';
  END IF;
  UPDATE credit_accounts a SET balance = a.balance + d.delta
    FROM (SELECT account_id, sum(amount) AS delta FROM new_entries GROUP BY account_id) d
    WHERE a.id = d.account_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER credit_entries_apply AFTER INSERT ON credit_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION credit_entries_apply();
--> statement-breakpoint
-- At commit: every journal transaction written has lines, and they sum to zero.
CREATE FUNCTION credit_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_lines bigint;
  v_sum numeric;
BEGIN
  SELECT count(*), coalesce(sum(amount), 0) INTO v_lines, v_sum FROM credit_entries WHERE transaction_id = NEW.id;
  IF v_lines = 0 OR v_sum <> 0 THEN
    RAISE EXCEPTION 'credit transaction % does not balance (% lines, sum %)', NEW.id, v_lines, v_sum USING ERRCODE = 'CR004';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER credit_transactions_balanced AFTER INSERT ON credit_transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION credit_transaction_balanced();
--> statement-breakpoint
-- The one way to move credits: locks the accounts in id order, refuses a pool of a deleted organization
-- (CR007: a delete moved its credits away and they must not come back) and a balance below zero (CR001,
-- naming the account), writes the header and its lines (the entries trigger moves the balances), and keeps
-- the figures stored on organizations in step (their pools; subtree_credits: the pools strictly below),
-- locking those rows root first (depth, id), the lock order of organizations/locks.ts. Ancestors whose change
-- sums to zero (a move between two organizations under them) are not touched. Answers
-- {"id": transaction id, "balances": {account: balance after}} for the accounts of p_report.
CREATE FUNCTION post_credit_transaction(p_action text, p_actor uuid, p_description text, p_accounts uuid[],
  p_amounts bigint[], p_report uuid[] DEFAULT '{}')
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
  SELECT a.id, a.balance INTO v_short FROM credit_accounts a JOIN unnest(v_ids, v_deltas) AS d(id, delta) ON d.id = a.id
    WHERE a.kind <> 'system' AND a.balance + d.delta < 0 ORDER BY a.id LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'credit account % would go below zero', v_short.id
      USING ERRCODE = 'CR001', DETAIL = v_short.id::text || ' ' || v_short.balance::text;
  END IF;

  INSERT INTO credit_transactions (action, actor_id, description)
    VALUES (p_action, p_actor, coalesce(p_description, '')) RETURNING id INTO v_tx;
  INSERT INTO credit_entries (transaction_id, account_id, amount)
    SELECT v_tx, account, amount FROM unnest(p_accounts, p_amounts) AS l(account, amount) WHERE amount <> 0;

  WITH pool AS (
    SELECT a.organization_id AS org,
      coalesce(sum(d.delta) FILTER (WHERE a.kind = 'shared'), 0) AS shared,
      coalesce(sum(d.delta) FILTER (WHERE a.kind = 'protected'), 0) AS protected
    FROM credit_accounts a JOIN unnest(v_ids, v_deltas) AS d(id, delta) ON d.id = a.id
    WHERE a.organization_id IS NOT NULL GROUP BY a.organization_id),
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
