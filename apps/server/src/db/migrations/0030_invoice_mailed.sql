-- Issue 30 (decision 010): whether an invoice was mailed to its customer. Mail to an address outside the
-- organization's owners and admins is capped (INVOICE_MAILS_PER_DAY); beyond the cap the invoice is created
-- unmailed. Every invoice before this was mailed.
ALTER TABLE "invoices" ADD COLUMN "mailed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- IN001 as in migration 0029, with `mailed` among what never changes.
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
      NEW.mailed)
     IS DISTINCT FROM (OLD.number, OLD.organization_id, OLD.kind, OLD.license_type, OLD.license_id, OLD.period,
      OLD.credits, OLD.amount, OLD.currency, OLD.customer_email, OLD.created_at, OLD.due_date, OLD.description,
      OLD.license_expiration_days, OLD.extend_users_quantity, OLD.new_users_quantity, OLD.license_expire_at,
      OLD.mailed) THEN
    RAISE EXCEPTION 'invoice % changes only its status', OLD.number USING ERRCODE = 'IN001';
  END IF;
  RETURN NEW;
END $$;
