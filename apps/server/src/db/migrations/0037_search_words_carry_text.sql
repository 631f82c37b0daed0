-- Searches of several words read the range of one of their words in the btree of words and check every
-- term in the entry itself (decision 002, "Several words"): each entry carries its row's marked text, as
-- the walk indexes do. Generated from the entry's own columns, so the triggers of migration 0014 stay as
-- they are. The range index is dropped before the column is added (the table is rewritten) and built once.
DROP INDEX "organization_search_words_range_idx";
--> statement-breakpoint
ALTER TABLE "organization_search_words"
  ADD COLUMN "search_text" text NOT NULL GENERATED ALWAYS AS (search_marked_name(name)) STORED;
--> statement-breakpoint
CREATE INDEX "organization_search_words_range_idx" ON "organization_search_words" ("scope_id", "word", "name", "organization_id") INCLUDE ("prev_word", "search_text");
--> statement-breakpoint
DROP INDEX "user_search_words_range_idx";
--> statement-breakpoint
ALTER TABLE "user_search_words"
  ADD COLUMN "search_text" text NOT NULL GENERATED ALWAYS AS (search_marked_user(name, email_key)) STORED;
--> statement-breakpoint
CREATE INDEX "user_search_words_range_idx" ON "user_search_words" ("scope_id", "word", "name", "user_id") INCLUDE ("prev_word", "email_key", "search_text");
