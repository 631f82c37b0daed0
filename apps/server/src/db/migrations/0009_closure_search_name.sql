DROP INDEX "organization_closure_ancestor_name_trgm_idx";--> statement-breakpoint
ALTER TABLE "organization_closure" ADD COLUMN "search_name" text GENERATED ALWAYS AS (lower(name)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "organization_closure_ancestor_search_trgm_idx" ON "organization_closure" USING gin ("ancestor_id","search_name" gin_trgm_ops);