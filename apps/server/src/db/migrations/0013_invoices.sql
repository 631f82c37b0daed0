CREATE TABLE "credit_packs" (
	"credits" integer PRIMARY KEY NOT NULL,
	"price" integer NOT NULL,
	CONSTRAINT "credit_packs_credits_check" CHECK ("credit_packs"."credits" > 0),
	CONSTRAINT "credit_packs_price_check" CHECK ("credit_packs"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"kind" text NOT NULL,
	"license_type" text,
	"license_id" uuid,
	"period" text,
	"credits" integer,
	"description" text NOT NULL,
	"customer_email" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"license_expiration_days" integer,
	"extend_users_quantity" integer,
	"new_users_quantity" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"due_date" timestamp with time zone NOT NULL,
	"fulfilment_method" text,
	"fulfilled_at" timestamp with time zone,
	"fulfilled_by" uuid,
	"license_event_id" uuid,
	"credit_transaction_id" uuid,
	"voided_at" timestamp with time zone,
	"voided_by" uuid,
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('open','fulfilled','void')),
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('new_license','extend_license','add_users','credits')),
	CONSTRAINT "invoices_amount_check" CHECK ("invoices"."amount" >= 0),
	CONSTRAINT "invoices_fulfilled_check" CHECK (("invoices"."status" = 'fulfilled') = ("invoices"."fulfilled_at" is not null and "invoices"."fulfilment_method" is not null
        and ("invoices"."license_event_id" is not null or "invoices"."credit_transaction_id" is not null))),
	CONSTRAINT "invoices_void_check" CHECK (("invoices"."status" = 'void') = ("invoices"."voided_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "license_expiry_reminders" (
	"license_id" uuid NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"days_before" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "license_expiry_reminders_license_id_expire_at_days_before_pk" PRIMARY KEY("license_id","expire_at","days_before")
);
--> statement-breakpoint
CREATE TABLE "license_prices" (
	"license_type" text PRIMARY KEY NOT NULL,
	"price_per_seat_month" integer NOT NULL,
	"has_free_tier" boolean DEFAULT false NOT NULL,
	CONSTRAINT "license_prices_price_check" CHECK ("license_prices"."price_per_seat_month" >= 0),
	CONSTRAINT "license_prices_type_check" CHECK ("license_prices"."license_type" in ('chorus','tle_creator','tle_teacher','chorus_optoma'))
);
--> statement-breakpoint
CREATE TABLE "price_list" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"currency" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "price_list_single_row" CHECK ("price_list"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_fulfilled_by_users_id_fk" FOREIGN KEY ("fulfilled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_list" ADD CONSTRAINT "price_list_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_license_event_key" ON "invoices" USING btree ("license_event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_credit_transaction_key" ON "invoices" USING btree ("credit_transaction_id");--> statement-breakpoint
CREATE INDEX "invoices_organization_idx" ON "invoices" USING btree ("organization_id","created_at");--> statement-breakpoint
-- The price list a fresh installation starts with (decision 010): a system admin edits it on the price-list screen.
INSERT INTO "price_list" ("id", "currency") VALUES (1, 'USD');--> statement-breakpoint
INSERT INTO "license_prices" ("license_type", "price_per_seat_month", "has_free_tier") VALUES
  ('chorus', 400, false), ('tle_creator', 900, false), ('tle_teacher', 300, true), ('chorus_optoma', 600, false);--> statement-breakpoint
INSERT INTO "credit_packs" ("credits", "price") VALUES (1000, 1000), (5000, 4500), (20000, 16000), (100000, 70000);--> statement-breakpoint
-- A fulfilled or void invoice is final (IN001): what it bought, its amount and its fulfilment never change,
-- so a purchase is applied once whatever code runs. Only an open invoice may change, and only its status.
CREATE FUNCTION invoices_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'invoices are never deleted' USING ERRCODE = 'IN001';
  END IF;
  IF OLD.status <> 'open' THEN
    RAISE EXCEPTION 'invoice % is %: it cannot change', OLD.number, OLD.status USING ERRCODE = 'IN001';
  END IF;
  IF (NEW.number, NEW.organization_id, NEW.kind, NEW.license_type, NEW.license_id, NEW.period, NEW.credits,
      NEW.amount, NEW.currency, NEW.customer_email, NEW.created_at, NEW.due_date)
     IS DISTINCT FROM (OLD.number, OLD.organization_id, OLD.kind, OLD.license_type, OLD.license_id, OLD.period,
      OLD.credits, OLD.amount, OLD.currency, OLD.customer_email, OLD.created_at, OLD.due_date) THEN
    RAISE EXCEPTION 'invoice % changes only its status', OLD.number USING ERRCODE = 'IN001';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER invoices_final BEFORE UPDATE OR DELETE ON invoices FOR EACH ROW EXECUTE FUNCTION invoices_final();
