CREATE TABLE "license_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "license_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" uuid NOT NULL,
	"license_id" uuid NOT NULL,
	"license_type" text NOT NULL,
	"action" text NOT NULL,
	"seats" integer NOT NULL,
	"max_users_after" integer NOT NULL,
	"expire_at_after" timestamp with time zone NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "source_license_id" uuid;--> statement-breakpoint
ALTER TABLE "license_events" ADD CONSTRAINT "license_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_events" ADD CONSTRAINT "license_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "license_events_seq_key" ON "license_events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "license_events_organization_idx" ON "license_events" USING btree ("organization_id","seq");--> statement-breakpoint
CREATE INDEX "license_events_license_idx" ON "license_events" USING btree ("license_id");--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_source_license_id_licenses_id_fk" FOREIGN KEY ("source_license_id") REFERENCES "public"."licenses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "licenses_source_idx" ON "licenses" USING btree ("source_license_id");--> statement-breakpoint
ALTER TABLE "license_events" ADD CONSTRAINT "license_events_action_check" CHECK ("action" in ('opening','created','seats_changed','expiry_changed','expiry_followed','deleted','handed_down','received','reclaimed','given_back','organization_deleted','purchased'));--> statement-breakpoint
-- The licences that existed before the log: one opening entry each, so every licence's seats add up from its log.
INSERT INTO "license_events" ("organization_id", "license_id", "license_type", "action", "seats", "max_users_after", "expire_at_after", "description", "created_at")
  SELECT "organization_id", "id", "license_type", 'opening', "max_users", "max_users", "expire_at", 'Seats held when the licence log began', "created_at" FROM "licenses";
--> statement-breakpoint
-- The licence log's rules (decision 009), SQLSTATEs of class LI: LI001 a licence whose seats or expiry changed
-- without its log entry (checked at commit), LI002 the log is append-only.
CREATE FUNCTION license_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The one update allowed: an account deleted later leaves its entries without an actor (ON DELETE SET NULL).
  IF TG_OP = 'UPDATE' AND NEW.actor_id IS NULL
     AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the licence log is append-only: % refused', TG_OP USING ERRCODE = 'LI002';
END $$;
--> statement-breakpoint
CREATE TRIGGER license_events_append_only BEFORE UPDATE OR DELETE ON license_events
  FOR EACH ROW EXECUTE FUNCTION license_log_append_only();
--> statement-breakpoint
CREATE TRIGGER license_events_no_truncate BEFORE TRUNCATE ON license_events
  FOR EACH STATEMENT EXECUTE FUNCTION license_log_append_only();
--> statement-breakpoint
-- At commit: a licence's seats are the sum of its log's seats, and its expiry the last entry's (a deleted
-- licence: its entries sum to zero). So no seat appears, vanishes or moves without its entry.
CREATE FUNCTION license_matches_log() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_id uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  v_max integer;
  v_expire timestamptz;
  v_sum bigint;
  v_last timestamptz;
BEGIN
  SELECT max_users, expire_at INTO v_max, v_expire FROM licenses WHERE id = v_id;
  SELECT coalesce(sum(seats), 0) INTO v_sum FROM license_events WHERE license_id = v_id;
  SELECT expire_at_after INTO v_last FROM license_events WHERE license_id = v_id ORDER BY seq DESC LIMIT 1;
  IF coalesce(v_max, 0) <> v_sum OR (v_max IS NOT NULL AND v_last IS DISTINCT FROM v_expire) THEN
    RAISE EXCEPTION 'licence % changed without its log entry (% seats, the log says %)', v_id, coalesce(v_max, 0), v_sum
      USING ERRCODE = 'LI001';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER licenses_match_log AFTER INSERT OR UPDATE OF max_users, expire_at OR DELETE ON licenses
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION license_matches_log();
