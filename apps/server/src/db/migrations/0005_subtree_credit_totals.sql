ALTER TABLE "organizations" ADD COLUMN "subtree_credits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_subtree_credits_check" CHECK ("organizations"."subtree_credits" >= 0);--> statement-breakpoint
UPDATE "organizations" o SET "subtree_credits" = t.total
FROM (
  SELECT c.ancestor_id AS id, sum(a.balance) AS total
  FROM "organization_closure" c
  JOIN "credit_accounts" a ON a.organization_id = c.descendant_id AND a.kind IN ('shared', 'protected')
  WHERE c.depth > 0
  GROUP BY c.ancestor_id
) t
WHERE o.id = t.id;
