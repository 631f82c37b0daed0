CREATE TABLE "consumption_days" (
	"organization_id" uuid NOT NULL,
	"day" date NOT NULL,
	"credits" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "consumption_days_organization_id_day_pk" PRIMARY KEY("organization_id","day"),
	CONSTRAINT "consumption_days_credits_check" CHECK ("consumption_days"."credits" >= 0)
);
--> statement-breakpoint
CREATE TABLE "integration_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" RENAME COLUMN "user_id" TO "caller_id";--> statement-breakpoint
ALTER TABLE "credit_accounts" DROP CONSTRAINT "credit_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "credit_accounts" DROP CONSTRAINT "credit_accounts_owner_check";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_user_id_key_pk";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_caller_id_key_pk" PRIMARY KEY("caller_id","key");--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "daily_consumption_limit" bigint;--> statement-breakpoint
ALTER TABLE "consumption_days" ADD CONSTRAINT "consumption_days_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_keys" ADD CONSTRAINT "integration_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_keys" ADD CONSTRAINT "integration_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_keys" ADD CONSTRAINT "integration_keys_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_keys_hash_key" ON "integration_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "integration_keys_organization_idx" ON "integration_keys" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_kind_check" CHECK ("credit_accounts"."kind" in ('shared','protected','user','system','consumed'));--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_owner_check" CHECK (("credit_accounts"."kind" in ('shared','protected','consumed') and "credit_accounts"."organization_id" is not null and "credit_accounts"."user_id" is null)
        or ("credit_accounts"."kind" = 'user' and "credit_accounts"."user_id" is not null and "credit_accounts"."organization_id" is null)
        or ("credit_accounts"."kind" = 'system' and "credit_accounts"."user_id" is null and "credit_accounts"."organization_id" is null));--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_daily_consumption_limit_check" CHECK ("organizations"."daily_consumption_limit" is null or "organizations"."daily_consumption_limit" > 0);