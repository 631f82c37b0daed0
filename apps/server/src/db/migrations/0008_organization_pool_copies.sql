ALTER TABLE "organizations" ADD COLUMN "shared_credits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "protected_credits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "organizations" o SET
  "shared_credits" = coalesce((SELECT balance FROM credit_accounts a WHERE a.organization_id = o.id AND a.kind = 'shared'), 0),
  "protected_credits" = coalesce((SELECT balance FROM credit_accounts a WHERE a.organization_id = o.id AND a.kind = 'protected'), 0);
