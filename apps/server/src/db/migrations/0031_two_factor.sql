-- Two-factor sign-in (CONTRACT §3, docs/decisions/015-two-factor.md). One row per account that has set up an
-- authenticator: the TOTP secret (AES-256-GCM with MFA_ENCRYPTION_KEY, or marked plain without it), when it was
-- confirmed (null: set up, not confirmed yet), and the last time step a code was accepted for, so that each code
-- works once.
CREATE TABLE "user_mfa" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_mfa" ADD CONSTRAINT "user_mfa_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The recovery codes: SHA-256 of the account and the 80-bit code; a code is deleted when it is used.
CREATE TABLE "mfa_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" ADD CONSTRAINT "mfa_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_recovery_codes_user_hash_key" ON "mfa_recovery_codes" USING btree ("user_id","code_hash");
--> statement-breakpoint
-- The second step of a sign-in whose password was right: `details.challenge` of 403 mfa_required (kind
-- sign_in) or mfa_setup_required (kind setup). Only the SHA-256 of the token is kept; used once, then deleted.
CREATE TABLE "mfa_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mfa_challenges_kind_check" CHECK ("mfa_challenges"."kind" in ('sign_in','setup'))
);
--> statement-breakpoint
ALTER TABLE "mfa_challenges" ADD CONSTRAINT "mfa_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_challenges_token_hash_key" ON "mfa_challenges" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "mfa_challenges_user_idx" ON "mfa_challenges" USING btree ("user_id");
--> statement-breakpoint
-- Set by an owner: the owners and admins of this organization and of every one below sign in with two-factor.
ALTER TABLE "organizations" ADD COLUMN "require_mfa" boolean DEFAULT false NOT NULL;
