-- Issue 30 (decision 010): an invoice applies exactly what it priced. An extension's seats are kept already
-- (extend_users_quantity); added seats keep the licence's expiry their months were priced up to.
ALTER TABLE "invoices" ADD COLUMN "license_expire_at" timestamp with time zone;--> statement-breakpoint
-- Open invoices for added seats: the expiry they priced is the licence's expiry when they were created, which
-- its log holds (decision 009). Fulfilled and void ones are final and need it no more.
UPDATE "invoices" i SET "license_expire_at" = (
    SELECT e."expire_at_after" FROM "license_events" e
    WHERE e."license_id" = i."license_id" AND e."created_at" <= i."created_at"
    ORDER BY e."seq" DESC LIMIT 1)
  WHERE i."kind" = 'add_users' AND i."status" = 'open';--> statement-breakpoint
-- IN001 as in migration 0013, with what the invoice priced (seats, days, the expiry, the description) among what
-- never changes.
CREATE OR REPLACE FUNCTION invoices_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'invoices are never deleted' USING ERRCODE = 'IN001';
  END IF;
  IF OLD.status <> 'open' THEN
    RAISE EXCEPTION 'invoice % is %: it cannot change', OLD.number, OLD.status USING ERRCODE = 'IN001';
  END IF;
  IF (NEW.number, NEW.organization_id, NEW.kind, NEW.license_type, NEW.license_id, NEW.period, NEW.credits,
      NEW.amount, NEW.currency, NEW.customer_email, NEW.created_at, NEW.due_date, NEW.description,
      NEW.license_expiration_days, NEW.extend_users_quantity, NEW.new_users_quantity, NEW.license_expire_at)
     IS DISTINCT FROM (OLD.number, OLD.organization_id, OLD.kind, OLD.license_type, OLD.license_id, OLD.period,
      OLD.credits, OLD.amount, OLD.currency, OLD.customer_email, OLD.created_at, OLD.due_date, OLD.description,
      OLD.license_expiration_days, OLD.extend_users_quantity, OLD.new_users_quantity, OLD.license_expire_at) THEN
    RAISE EXCEPTION 'invoice % changes only its status', OLD.number USING ERRCODE = 'IN001';
  END IF;
  RETURN NEW;
END $$;
