CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" uuid NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"target_label" text DEFAULT '' NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"credit_transaction_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_alert_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"threshold" jsonb NOT NULL,
	"level" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_alert_settings" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"thresholds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reference_balance" bigint,
	"fired" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_usage_days" (
	"organization_id" uuid NOT NULL,
	"day" date NOT NULL,
	"received" bigint DEFAULT 0 NOT NULL,
	"handed_down" bigint DEFAULT 0 NOT NULL,
	"consumed" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "credit_usage_days_organization_id_day_pk" PRIMARY KEY("organization_id","day")
);
--> statement-breakpoint
CREATE TABLE "credit_usage_queue" (
	"transaction_id" uuid PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "license_seat_days" (
	"license_id" uuid NOT NULL,
	"day" date NOT NULL,
	"used" integer NOT NULL,
	"max_users" integer NOT NULL,
	CONSTRAINT "license_seat_days_license_id_day_pk" PRIMARY KEY("license_id","day")
);
--> statement-breakpoint
CREATE TABLE "member_consumption" (
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"last_consumed_on" date NOT NULL,
	CONSTRAINT "member_consumption_user_id_organization_id_pk" PRIMARY KEY("user_id","organization_id")
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_alert_settings" ADD CONSTRAINT "credit_alert_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_alert_settings" ADD CONSTRAINT "credit_alert_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_seq_key" ON "audit_events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "audit_events_organization_idx" ON "audit_events" USING btree ("organization_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_created_idx" ON "audit_events" USING btree ("created_at");--> statement-breakpoint
-- The audit log is append-only; the one update let through is the ON DELETE SET NULL of an actor's account.
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.actor_id IS NULL
     AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'AU001';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
-- Every new journal transaction waits in credit_usage_queue for the roll-up job (decision 014, "Roll-up"):
-- one small insert in the posting's transaction, no row shared with other postings.
CREATE FUNCTION credit_usage_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO credit_usage_queue (transaction_id) SELECT id FROM new_transactions;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER credit_transactions_usage_queue AFTER INSERT ON credit_transactions
  REFERENCING NEW TABLE AS new_transactions FOR EACH STATEMENT EXECUTE FUNCTION credit_usage_enqueue();
--> statement-breakpoint
INSERT INTO credit_usage_queue (transaction_id) SELECT id FROM credit_transactions;
--> statement-breakpoint
-- Seats used per licence and UTC day. The day's row is locked before the count, and the count is a
-- statement of its own (a fresh snapshot under READ COMMITTED): of two concurrent changes, the one that
-- writes last counts the other's committed change too.
CREATE FUNCTION license_seat_days_touch(p_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_day date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO license_seat_days (license_id, day, used, max_users)
    SELECT l.id, v_day, 0, l.max_users FROM licenses l WHERE l.id = ANY(p_ids) ORDER BY l.id
    ON CONFLICT (license_id, day) DO NOTHING;
  PERFORM 1 FROM license_seat_days WHERE license_id = ANY(p_ids) AND day = v_day
    ORDER BY license_id FOR UPDATE;
  UPDATE license_seat_days d SET
      used = (SELECT count(*) FROM memberships m WHERE m.license_id = d.license_id)
           + (SELECT count(*) FROM membership_invitations i WHERE i.license_id = d.license_id),
      max_users = l.max_users
    FROM licenses l
    WHERE d.license_id = ANY(p_ids) AND d.day = v_day AND l.id = d.license_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION license_seat_days_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v_ids uuid[];
BEGIN
  IF TG_TABLE_NAME = 'licenses' THEN
    SELECT array_agg(DISTINCT id) INTO v_ids FROM new_rows;
  ELSE
    SELECT array_agg(DISTINCT license_id) INTO v_ids FROM new_rows WHERE license_id IS NOT NULL;
  END IF;
  IF v_ids IS NOT NULL THEN PERFORM license_seat_days_touch(v_ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION license_seat_days_old_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v_ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT license_id) INTO v_ids FROM old_rows WHERE license_id IS NOT NULL;
  IF v_ids IS NOT NULL THEN PERFORM license_seat_days_touch(v_ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION license_seat_days_changed_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v_ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT id) INTO v_ids FROM (
    SELECT n.license_id AS id FROM new_rows n
    UNION SELECT o.license_id FROM old_rows o) changed WHERE id IS NOT NULL;
  IF v_ids IS NOT NULL THEN PERFORM license_seat_days_touch(v_ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_seat_days_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_days_new_rows();
--> statement-breakpoint
CREATE TRIGGER memberships_seat_days_update AFTER UPDATE ON memberships
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_days_changed_rows();
--> statement-breakpoint
CREATE TRIGGER memberships_seat_days_delete AFTER DELETE ON memberships
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_days_old_rows();
--> statement-breakpoint
CREATE TRIGGER membership_invitations_seat_days_insert AFTER INSERT ON membership_invitations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_days_new_rows();
--> statement-breakpoint
CREATE TRIGGER membership_invitations_seat_days_update AFTER UPDATE ON membership_invitations
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_days_changed_rows();
--> statement-breakpoint
CREATE TRIGGER membership_invitations_seat_days_delete AFTER DELETE ON membership_invitations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_days_old_rows();
--> statement-breakpoint
CREATE TRIGGER licenses_seat_days_insert AFTER INSERT ON licenses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_days_new_rows();
--> statement-breakpoint
CREATE TRIGGER licenses_seat_days_update AFTER UPDATE ON licenses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_days_new_rows();
--> statement-breakpoint
INSERT INTO license_seat_days (license_id, day, used, max_users)
  SELECT l.id, (now() AT TIME ZONE 'UTC')::date,
    (SELECT count(*) FROM memberships m WHERE m.license_id = l.id)
      + (SELECT count(*) FROM membership_invitations i WHERE i.license_id = l.id),
    l.max_users
  FROM licenses l;
--> statement-breakpoint
-- Low-balance alerts (CONTRACT §10): run under the organization's row lock that every posting takes, so
-- of any number of server processes exactly one posting crosses a threshold. A growing shared pool is a
-- top-up: it sets the reference and re-arms every threshold the pool is now above. A threshold fires when
-- the pool is at or below its level (> 0), once until a top-up re-arms it; the alert worker turns the event
-- into mails.
CREATE FUNCTION credit_alerts_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s record;
  t jsonb;
  v_level bigint;
  v_fired jsonb;
BEGIN
  SELECT * INTO s FROM credit_alert_settings WHERE organization_id = NEW.id FOR UPDATE;
  IF NOT FOUND OR jsonb_array_length(s.thresholds) = 0 THEN
    RETURN NULL;
  END IF;
  IF NEW.shared_credits > OLD.shared_credits THEN
    -- A threshold re-arms once the pool is back above its level: a few credits reclaimed into a pool below a
    -- number of credits do not make its mail go again at the next debit. A percentage is of the new
    -- reference, which the pool is above: it always re-arms.
    v_fired := '[]'::jsonb;
    FOR i IN 0 .. jsonb_array_length(s.thresholds) - 1 LOOP
      t := s.thresholds -> i;
      IF s.fired @> to_jsonb(i) AND t ->> 'kind' = 'credits'
         AND NEW.shared_credits <= (t ->> 'value')::bigint THEN
        v_fired := v_fired || to_jsonb(i);
      END IF;
    END LOOP;
    UPDATE credit_alert_settings SET reference_balance = NEW.shared_credits, fired = v_fired
      WHERE organization_id = NEW.id;
    RETURN NULL;
  END IF;
  v_fired := s.fired;
  FOR i IN 0 .. jsonb_array_length(s.thresholds) - 1 LOOP
    t := s.thresholds -> i;
    CONTINUE WHEN v_fired @> to_jsonb(i);
    v_level := CASE t ->> 'kind'
      WHEN 'credits' THEN (t ->> 'value')::bigint
      ELSE floor(coalesce(s.reference_balance, 0) * (t ->> 'value')::numeric / 100)::bigint END;
    IF v_level > 0 AND NEW.shared_credits <= v_level THEN
      v_fired := v_fired || to_jsonb(i);
      INSERT INTO credit_alert_events (organization_id, threshold, level, balance)
        VALUES (NEW.id, t, v_level, NEW.shared_credits);
    END IF;
  END LOOP;
  IF v_fired <> s.fired THEN
    UPDATE credit_alert_settings SET fired = v_fired WHERE organization_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organizations_credit_alerts AFTER UPDATE OF shared_credits ON organizations
  FOR EACH ROW WHEN (NEW.shared_credits <> OLD.shared_credits) EXECUTE FUNCTION credit_alerts_check();

--> statement-breakpoint
-- The posting function of migration 0011, with one more argument: `p_created_at`, the date of a posting of
-- the past. Only the seeds pass it (the demo's history, the benchmark's year of consumption); the API never
-- does, so every posting of a person is dated by the database.
DROP FUNCTION post_credit_transaction(text, uuid, text, uuid[], bigint[], uuid[]);
--> statement-breakpoint
CREATE FUNCTION post_credit_transaction(p_action text, p_actor uuid, p_description text, p_accounts uuid[],
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
