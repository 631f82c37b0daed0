CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
ALTER TABLE "organization_closure" ADD COLUMN "name" text DEFAULT '' NOT NULL;
--> statement-breakpoint
UPDATE "organization_closure" c SET "name" = o."name" FROM "organizations" o WHERE o."id" = c."descendant_id";
--> statement-breakpoint
CREATE INDEX "organization_closure_ancestor_name_idx" ON "organization_closure" USING btree ("ancestor_id","name");
--> statement-breakpoint
CREATE INDEX "organization_closure_ancestor_name_trgm_idx" ON "organization_closure" USING gin ("ancestor_id","name" gin_trgm_ops);
