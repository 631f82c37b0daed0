-- Issue 30 (decision 010): invoice numbers per organization, `INV-{code}-{0001}`, that tell nothing of the
-- platform's volume. Numbers already given keep their INV-{year}-{six digits}: they were mailed, printed and
-- written into the licence log and the credit journal, which never change.
CREATE TABLE "invoice_series" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "invoice_series_code_check" CHECK ("invoice_series"."code" ~ '^[A-Z2-9]{6}$'),
	CONSTRAINT "invoice_series_last_check" CHECK ("invoice_series"."last" > 0)
);
--> statement-breakpoint
ALTER TABLE "invoice_series" ADD CONSTRAINT "invoice_series_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_series_code_key" ON "invoice_series" USING btree ("code");--> statement-breakpoint
DROP TABLE "invoice_counters";
