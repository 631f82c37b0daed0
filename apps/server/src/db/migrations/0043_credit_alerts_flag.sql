-- The low-balance alert trigger runs only for organizations that have alerts (issue 32, decision 006). It ran for
-- every change of a shared pool's copy, two a transfer and one a consumption from a shared pool, to look up
-- settings most organizations never saved: a call of the function and a locking read each time.
-- `credit_alerts` is set when an organization's settings are first saved (a trigger on their insert); settings
-- are never deleted but with their organization, so it is never turned off. A save locks the organization's row
-- before it writes its settings (set-credit-alerts.ts), so a posting either sees the flag and the settings, or
-- neither, as it saw the settings alone before.
ALTER TABLE "organizations" ADD COLUMN "credit_alerts" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "organizations" o SET "credit_alerts" = true
  WHERE EXISTS (SELECT 1 FROM credit_alert_settings s WHERE s.organization_id = o.id);
--> statement-breakpoint
CREATE FUNCTION credit_alerts_flag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organizations SET credit_alerts = true WHERE id = NEW.organization_id AND NOT credit_alerts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER credit_alert_settings_flag AFTER INSERT ON credit_alert_settings
  FOR EACH ROW EXECUTE FUNCTION credit_alerts_flag();
--> statement-breakpoint
DROP TRIGGER organizations_credit_alerts ON organizations;
--> statement-breakpoint
CREATE TRIGGER organizations_credit_alerts AFTER UPDATE OF shared_credits ON organizations
  FOR EACH ROW WHEN (NEW.credit_alerts AND NEW.shared_credits <> OLD.shared_credits)
  EXECUTE FUNCTION credit_alerts_check();
