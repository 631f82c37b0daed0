-- Issue 33 (decision 010): a credits invoice keeps the pool its credits go to, as the buyer chose. Invoices made
-- before keep null and are fulfilled into the protected pool, as they were priced and promised; no row is
-- rewritten (IN001 keeps fulfilled and void invoices as they are).
ALTER TABLE "invoices" ADD COLUMN "credit_pool" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credit_pool_check" CHECK ("invoices"."credit_pool" is null or ("invoices"."kind" = 'credits' and "invoices"."credit_pool" in ('shared','protected')));--> statement-breakpoint
-- IN001 as in migration 0030, with `credit_pool` among what never changes: it is part of what the invoice sold.
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
      NEW.license_expiration_days, NEW.extend_users_quantity, NEW.new_users_quantity, NEW.license_expire_at,
      NEW.mailed, NEW.credit_pool)
     IS DISTINCT FROM (OLD.number, OLD.organization_id, OLD.kind, OLD.license_type, OLD.license_id, OLD.period,
      OLD.credits, OLD.amount, OLD.currency, OLD.customer_email, OLD.created_at, OLD.due_date, OLD.description,
      OLD.license_expiration_days, OLD.extend_users_quantity, OLD.new_users_quantity, OLD.license_expire_at,
      OLD.mailed, OLD.credit_pool) THEN
    RAISE EXCEPTION 'invoice % changes only its status', OLD.number USING ERRCODE = 'IN001';
  END IF;
  RETURN NEW;
END $$;
