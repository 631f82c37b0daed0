-- Word-prefix search (CONTRACT §1, decision 002 "Search"). A term matches where the folded text (lower case,
-- accents off) from a word start begins with it. Names split into words at every character that is not a
-- letter or digit; emails at @ . _ - + only.
CREATE FUNCTION search_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT lower(regexp_replace(normalize(t, NFD), '[\u0300-\u036f]', '', 'g'))
$$;
--> statement-breakpoint
-- The folded text with chr(31) before every word start: a term matches where its own marked form occurs.
CREATE FUNCTION search_mark_name(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT regexp_replace(search_fold(t), '(^|[^[:alnum:]])([[:alnum:]])', '\1' || chr(31) || '\2', 'g')
$$;
--> statement-breakpoint
CREATE FUNCTION search_mark_email(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT regexp_replace(search_fold(t), '(^|[@._+-])([^@._+-])', '\1' || chr(31) || '\2', 'g')
$$;
--> statement-breakpoint
CREATE FUNCTION search_marked_name(name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(search_mark_name(name), '')
$$;
--> statement-breakpoint
-- A term cannot span the line break: terms hold no whitespace.
CREATE FUNCTION search_marked_user(name text, email text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(search_mark_name(name), '') || chr(10) || coalesce(search_mark_email(email), '')
$$;
--> statement-breakpoint
-- The LIKE pattern of one search term under one marking, or null when the term cannot start a word there
-- (it begins with a separator). Wildcards in the term are matched literally.
CREATE FUNCTION search_pattern(marked text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN left(marked, 1) = chr(31)
    THEN '%' || replace(replace(replace(marked, '\', '\\'), '%', '\%'), '_', '\_') || '%' END
$$;
--> statement-breakpoint
-- What a scope's words are prefixed with in `search_vector`: its id's 32 hex digits. Every scope has its
-- own key, so the GIN index alone answers "these words, in this scope" exactly (for terms of letters and
-- digits only; other terms are also checked against the marked text).
CREATE FUNCTION search_scope_key(scope uuid) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT replace(scope::text, '-', '')
$$;
--> statement-breakpoint
-- The words of a name (split at non-letters and non-digits) and of an email (split at @ . _ - +), folded,
-- once each, in code-point order.
CREATE FUNCTION search_words(name text, email text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array(
    SELECT DISTINCT w COLLATE "C" FROM (
      SELECT regexp_split_to_table(search_fold(coalesce(name, '')), '[^[:alnum:]]+') AS w
      UNION ALL
      SELECT regexp_split_to_table(search_fold(coalesce(email, '')), '[@._+-]+')
    ) words
    WHERE w <> ''
    ORDER BY 1)
$$;
--> statement-breakpoint
-- The words, each prefixed with the scope's key, as lexemes for a GIN index.
CREATE FUNCTION search_vector(scope uuid, name text, email text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(array(SELECT search_scope_key(scope) || w FROM unnest(search_words(name, email)) AS w))
$$;
--> statement-breakpoint
-- The entries of the btrees of words for one row: each word with the row's previous word ('' for the
-- first), so that a prefix range counts a row once (see the words tables below).
CREATE FUNCTION search_word_entries(name text, email text) RETURNS TABLE (word text, prev_word text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT w.word, coalesce(ws[w.i - 1], '')
  FROM (SELECT search_words(name, email) AS ws) a, unnest(a.ws) WITH ORDINALITY AS w(word, i)
$$;
--> statement-breakpoint
-- The index half of a search in one scope: every term's first word as a prefix, all of them together.
-- The exact check (the LIKE patterns) is made on the rows it finds. A term's first word is its leading
-- letters and digits (a name's word, or the start of an email's), else what precedes its first email
-- separator; a term that begins with @ . _ - + starts no word (the caller answers nothing for it).
CREATE FUNCTION search_query(scope uuid, search text) RETURNS tsquery LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(
    '''' || replace(replace(search_scope_key(scope) || lead, '\', '\\'), '''', '''''') || ''':*', ' & '), '')::tsquery
  FROM (
    SELECT coalesce(substring(t FROM '^[[:alnum:]]+'), substring(t FROM '^[^@._+-]+'), '') AS lead
    FROM regexp_split_to_table(search_fold(search), '\s+') AS t
    WHERE t <> ''
  ) terms
$$;
--> statement-breakpoint
CREATE TABLE "user_search" (
	"scope_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email_key" text NOT NULL,
	"search_text" text GENERATED ALWAYS AS (search_marked_user(name, email_key)) STORED NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (search_vector(scope_id, name, email_key)) STORED NOT NULL,
	CONSTRAINT "user_search_scope_id_user_id_pk" PRIMARY KEY("scope_id","user_id")
);
--> statement-breakpoint
DROP INDEX "organization_closure_ancestor_name_idx";--> statement-breakpoint
DROP INDEX "organization_closure_ancestor_search_trgm_idx";--> statement-breakpoint
DROP INDEX "organizations_name_idx";--> statement-breakpoint
DROP INDEX "organizations_name_trgm_idx";--> statement-breakpoint
DROP INDEX "users_name_trgm_idx";--> statement-breakpoint
DROP INDEX "users_email_trgm_idx";--> statement-breakpoint
ALTER TABLE "organization_closure" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_marked_name(name)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_closure" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (search_vector(ancestor_id, name, null)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_marked_name(name)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (search_vector('00000000-0000-0000-0000-000000000000'::uuid, name, null)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text GENERATED ALWAYS AS (search_marked_user(name, email)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "user_search" ADD CONSTRAINT "user_search_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_search_user_idx" ON "user_search" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_search_vector_idx" ON "user_search" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "organization_closure_search_vector_idx" ON "organization_closure" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "organizations_search_vector_idx" ON "organizations" USING gin ("search_vector") WHERE "organizations"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "organization_closure" DROP COLUMN "search_name";
--> statement-breakpoint
CREATE INDEX "user_search_name_idx" ON "user_search" ("scope_id", "name", "user_id") INCLUDE ("search_text");
--> statement-breakpoint
CREATE INDEX "user_search_email_idx" ON "user_search" ("scope_id", "email_key", "user_id") INCLUDE ("search_text");
--> statement-breakpoint
CREATE INDEX "organization_closure_ancestor_name_idx" ON "organization_closure" ("ancestor_id", "name", "descendant_id") INCLUDE ("search_text");
--> statement-breakpoint
CREATE INDEX "organizations_live_name_idx" ON "organizations" ("name", "id") INCLUDE ("search_text") WHERE "deleted_at" IS NULL;
--> statement-breakpoint
-- The scopes a user is searched in: the nil scope (system admins) from the start, and the top-level
-- organization of every organization it belongs to, kept by the triggers below in the statement that
-- changes the users or the memberships (a bulk import is one statement).
CREATE FUNCTION allot_user_search_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO user_search (scope_id, user_id, name, email_key)
    SELECT '00000000-0000-0000-0000-000000000000'::uuid, n.id, n.name, lower(n.email) FROM new_rows n;
  ELSE
    UPDATE user_search s SET name = n.name, email_key = lower(n.email)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE s.user_id = n.id AND (n.name IS DISTINCT FROM o.name OR n.email IS DISTINCT FROM o.email);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_search_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_user_search_users();
--> statement-breakpoint
CREATE TRIGGER users_search_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_user_search_users();
--> statement-breakpoint
-- Recomputes the scopes of the users whose memberships changed. Their rows in users are locked first
-- (in id order), so that two transactions changing one user's memberships at once take turns, and the
-- second reads what the first committed.
CREATE FUNCTION allot_user_search_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  affected uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT user_id) INTO affected FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT user_id) INTO affected FROM old_rows;
  ELSE
    -- A role change moves no one.
    SELECT array_agg(DISTINCT user_id) INTO affected FROM (
      (SELECT user_id, organization_id FROM new_rows EXCEPT SELECT user_id, organization_id FROM old_rows)
      UNION ALL
      (SELECT user_id, organization_id FROM old_rows EXCEPT SELECT user_id, organization_id FROM new_rows)) moved;
  END IF;
  IF affected IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM users u WHERE u.id = ANY (affected) ORDER BY u.id FOR NO KEY UPDATE;
  WITH wanted AS (
    SELECT DISTINCT m.user_id, c.ancestor_id AS scope_id
    FROM memberships m
    JOIN organization_closure c ON c.descendant_id = m.organization_id
    JOIN organizations r ON r.id = c.ancestor_id AND r.parent_id IS NULL
    WHERE m.user_id = ANY (affected)
  ), gone AS (
    DELETE FROM user_search s
    WHERE s.user_id = ANY (affected) AND s.scope_id <> '00000000-0000-0000-0000-000000000000'::uuid
      AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.user_id = s.user_id AND w.scope_id = s.scope_id)
  )
  INSERT INTO user_search (scope_id, user_id, name, email_key)
  SELECT w.scope_id, w.user_id, u.name, lower(u.email) FROM wanted w JOIN users u ON u.id = w.user_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_search_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_user_search_memberships();
--> statement-breakpoint
CREATE TRIGGER memberships_search_delete AFTER DELETE ON memberships
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_user_search_memberships();
--> statement-breakpoint
CREATE TRIGGER memberships_search_update AFTER UPDATE ON memberships
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_user_search_memberships();
--> statement-breakpoint
-- The users there already.
INSERT INTO user_search (scope_id, user_id, name, email_key)
SELECT '00000000-0000-0000-0000-000000000000'::uuid, u.id, u.name, lower(u.email) FROM users u;
--> statement-breakpoint
INSERT INTO user_search (scope_id, user_id, name, email_key)
SELECT DISTINCT c.ancestor_id, m.user_id, u.name, lower(u.email)
FROM memberships m
JOIN users u ON u.id = m.user_id
JOIN organization_closure c ON c.descendant_id = m.organization_id
JOIN organizations r ON r.id = c.ancestor_id AND r.parent_id IS NULL;
--> statement-breakpoint
-- Substring search is gone, and with it the trigram indexes (dropped above) and their extensions.
DROP EXTENSION IF EXISTS btree_gin;
--> statement-breakpoint
DROP EXTENSION IF EXISTS pg_trgm;

--> statement-breakpoint
-- One-word searches read a btree of words instead of the GIN index (decision 002): one entry per word of
-- a searched row and scope, with the row's previous word (code-point order), so that "the first entry of
-- each row in a prefix range" (previous word < prefix) counts every row once, without reading the table.
CREATE TABLE "user_search_words" (
	"scope_id" uuid NOT NULL,
	"word" text COLLATE "C" NOT NULL,
	"prev_word" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"email_key" text NOT NULL,
	"user_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE INDEX "user_search_words_range_idx" ON "user_search_words" ("scope_id", "word", "name", "user_id") INCLUDE ("prev_word", "email_key");
--> statement-breakpoint
CREATE INDEX "user_search_words_user_idx" ON "user_search_words" ("user_id");
--> statement-breakpoint
CREATE TABLE "organization_search_words" (
	"scope_id" uuid NOT NULL,
	"word" text COLLATE "C" NOT NULL,
	"prev_word" text COLLATE "C" NOT NULL,
	"name" text NOT NULL,
	"organization_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE INDEX "organization_search_words_range_idx" ON "organization_search_words" ("scope_id", "word", "name", "organization_id") INCLUDE ("prev_word");
--> statement-breakpoint
CREATE INDEX "organization_search_words_organization_idx" ON "organization_search_words" ("organization_id");
--> statement-breakpoint
-- The words of user_search rows, kept with them (in the statement that changes them).
CREATE FUNCTION allot_user_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM user_search_words w USING old_rows o WHERE w.user_id = o.user_id AND w.scope_id = o.scope_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO user_search_words (scope_id, word, prev_word, name, email_key, user_id)
    SELECT n.scope_id, w.word, w.prev_word, n.name, n.email_key, n.user_id
    FROM new_rows n
    CROSS JOIN LATERAL search_word_entries(n.name, n.email_key) AS w;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_search_words_insert AFTER INSERT ON user_search
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_user_search_words();
--> statement-breakpoint
CREATE TRIGGER user_search_words_delete AFTER DELETE ON user_search
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_user_search_words();
--> statement-breakpoint
CREATE TRIGGER user_search_words_update AFTER UPDATE ON user_search
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_user_search_words();
--> statement-breakpoint
-- The words of organizations: in the scope of each ancestor (closure rows) and, while live, in the nil
-- scope (a system admin's search).
CREATE FUNCTION allot_closure_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM organization_search_words w USING old_rows o
    WHERE w.organization_id = o.descendant_id AND w.scope_id = o.ancestor_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO organization_search_words (scope_id, word, prev_word, name, organization_id)
    SELECT n.ancestor_id, w.word, w.prev_word, n.name, n.descendant_id
    FROM new_rows n
    CROSS JOIN LATERAL search_word_entries(n.name, NULL) AS w;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organization_closure_words_insert AFTER INSERT ON organization_closure
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_closure_search_words();
--> statement-breakpoint
CREATE TRIGGER organization_closure_words_delete AFTER DELETE ON organization_closure
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_closure_search_words();
--> statement-breakpoint
CREATE TRIGGER organization_closure_words_update AFTER UPDATE ON organization_closure
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_closure_search_words();
--> statement-breakpoint
CREATE FUNCTION allot_organization_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_search_words (scope_id, word, prev_word, name, organization_id)
  SELECT '00000000-0000-0000-0000-000000000000'::uuid, w.word, w.prev_word, n.name, n.id
  FROM new_rows n
  CROSS JOIN LATERAL search_word_entries(n.name, NULL) AS w
  WHERE n.deleted_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organizations_words_insert AFTER INSERT ON organizations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_organization_search_words();
--> statement-breakpoint
-- A rename or a delete, row by row: the counters and pool copies update organizations all the time, and
-- a statement trigger with transition tables would cost every one of those updates.
CREATE FUNCTION allot_organization_search_words_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM organization_search_words
  WHERE organization_id = NEW.id AND scope_id = '00000000-0000-0000-0000-000000000000'::uuid;
  IF NEW.deleted_at IS NULL THEN
    INSERT INTO organization_search_words (scope_id, word, prev_word, name, organization_id)
    SELECT '00000000-0000-0000-0000-000000000000'::uuid, w.word, w.prev_word, NEW.name, NEW.id
    FROM search_word_entries(NEW.name, NULL) AS w;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organizations_words_update AFTER UPDATE OF name, deleted_at ON organizations FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION allot_organization_search_words_changed();
--> statement-breakpoint
-- The rows there already.
INSERT INTO user_search_words (scope_id, word, prev_word, name, email_key, user_id)
SELECT s.scope_id, w.word, w.prev_word, s.name, s.email_key, s.user_id
FROM user_search s
CROSS JOIN LATERAL search_word_entries(s.name, s.email_key) AS w;
--> statement-breakpoint
INSERT INTO organization_search_words (scope_id, word, prev_word, name, organization_id)
SELECT c.ancestor_id, w.word, w.prev_word, c.name, c.descendant_id
FROM organization_closure c
CROSS JOIN LATERAL search_word_entries(c.name, NULL) AS w;
--> statement-breakpoint
INSERT INTO organization_search_words (scope_id, word, prev_word, name, organization_id)
SELECT '00000000-0000-0000-0000-000000000000'::uuid, w.word, w.prev_word, o.name, o.id
FROM organizations o
CROSS JOIN LATERAL search_word_entries(o.name, NULL) AS w
WHERE o.deleted_at IS NULL;
