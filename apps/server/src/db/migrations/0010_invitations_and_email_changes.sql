CREATE TABLE "membership_invitations" (
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"role" text NOT NULL,
	"license_id" uuid,
	"invited_name" text NOT NULL,
	"invited_email" text NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_invitations_user_id_organization_id_pk" PRIMARY KEY("user_id","organization_id"),
	CONSTRAINT "membership_invitations_role_check" CHECK ("membership_invitations"."role" in ('organization_owner','organization_admin','user'))
);
--> statement-breakpoint
ALTER TABLE "one_time_codes" DROP CONSTRAINT "one_time_codes_purpose_check";--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "membership_invitations" ADD CONSTRAINT "membership_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_invitations" ADD CONSTRAINT "membership_invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_invitations" ADD CONSTRAINT "membership_invitations_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_invitations" ADD CONSTRAINT "membership_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "membership_invitations_organization_idx" ON "membership_invitations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "membership_invitations_license_idx" ON "membership_invitations" USING btree ("license_id");--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_purpose_check" CHECK ("one_time_codes"."purpose" in ('password_reset','email_verification','membership_invitation','email_change'));