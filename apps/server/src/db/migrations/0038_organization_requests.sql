-- CONTRACT §11, decision 017: requests up the tree. An organization asks the one directly above it for credits or seats;
-- the admins there approve (the allocation in the same transaction), decline with a reason, or the asker cancels.
CREATE TABLE "organization_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"parent_organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"pool" text,
	"license_type" text,
	"note" text,
	"status" text DEFAULT 'open' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"approved_amount" integer,
	"reason" text,
	CONSTRAINT "organization_requests_kind_check" CHECK ("organization_requests"."kind" in ('credits','seats')),
	CONSTRAINT "organization_requests_status_check" CHECK ("organization_requests"."status" in ('open','approved','declined','cancelled')),
	CONSTRAINT "organization_requests_pool_check" CHECK ("organization_requests"."pool" is null or "organization_requests"."pool" in ('shared','protected')),
	CONSTRAINT "organization_requests_license_type_check" CHECK ("organization_requests"."license_type" is null or "organization_requests"."license_type" in ('chorus','tle_creator','tle_teacher','chorus_optoma')),
	CONSTRAINT "organization_requests_what_check" CHECK (("organization_requests"."kind" = 'credits' and "organization_requests"."pool" is not null and "organization_requests"."license_type" is null)
        or ("organization_requests"."kind" = 'seats' and "organization_requests"."license_type" is not null and "organization_requests"."pool" is null)),
	CONSTRAINT "organization_requests_amount_check" CHECK ("organization_requests"."amount" > 0),
	CONSTRAINT "organization_requests_approved_check" CHECK (("organization_requests"."status" = 'approved') = ("organization_requests"."approved_amount" is not null)
        and ("organization_requests"."approved_amount" is null or ("organization_requests"."approved_amount" > 0 and "organization_requests"."approved_amount" <= "organization_requests"."amount"))),
	CONSTRAINT "organization_requests_declined_check" CHECK (("organization_requests"."status" = 'declined') = ("organization_requests"."reason" is not null)),
	CONSTRAINT "organization_requests_decided_check" CHECK (("organization_requests"."status" = 'open') = ("organization_requests"."decided_at" is null)),
	CONSTRAINT "organization_requests_parent_check" CHECK ("organization_requests"."parent_organization_id" <> "organization_requests"."organization_id")
);
--> statement-breakpoint
ALTER TABLE "organization_requests" ADD CONSTRAINT "organization_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_requests" ADD CONSTRAINT "organization_requests_parent_organization_id_organizations_id_fk" FOREIGN KEY ("parent_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_requests" ADD CONSTRAINT "organization_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_requests" ADD CONSTRAINT "organization_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_requests_incoming_idx" ON "organization_requests" USING btree ("parent_organization_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "organization_requests_outgoing_idx" ON "organization_requests" USING btree ("organization_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "organization_requests_open_incoming_idx" ON "organization_requests" USING btree ("parent_organization_id","created_at" DESC NULLS LAST) WHERE "organization_requests"."status" = 'open';
