-- Sessions remember whether they proved the second factor (issue 51, decision 015): gaining an owner or admin
-- role in a tree that requires two-factor ends the account's sessions that did not, as switching the
-- requirement on does. A live session of an account with two-factor on proved it: it was opened by the code
-- step, or it is the one that turned two-factor on (which ended every other).
-- And each session ends `SESSION_MAX_DAYS` after its sign-in whatever its use (`ends_at`); the sliding 7 days
-- never go past it. Existing sessions get 30 days from their sign-in.
ALTER TABLE "sessions" ADD COLUMN "used_mfa" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "ends_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "sessions" s SET "used_mfa" = true
  WHERE EXISTS (SELECT 1 FROM user_mfa f WHERE f.user_id = s.user_id AND f.enabled_at IS NOT NULL);
--> statement-breakpoint
UPDATE "sessions" SET "ends_at" = "created_at" + interval '30 days';
--> statement-breakpoint
UPDATE "sessions" SET "expires_at" = "ends_at" WHERE "expires_at" > "ends_at";
--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "ends_at" SET NOT NULL;
--> statement-breakpoint
-- Rows written without it (a bench's sessions) end at the default's 30 days; sign-in sets it from the setting.
ALTER TABLE "sessions" ALTER COLUMN "ends_at" SET DEFAULT now() + interval '30 days';
