-- Issue 35: a pg_dump of the database restores. pg_restore runs with an empty search_path, and the generated
-- search columns (organizations, organization_closure, users, user_search, …) call these functions while their
-- rows are copied: an unqualified call of another of our functions was "function search_mark_name(text) does
-- not exist" and the restore stopped. The same bodies, every call of ours qualified with `public.` (SQL
-- functions are still inlined; the built-ins are in pg_catalog, which is always searched).
CREATE OR REPLACE FUNCTION public.search_mark_email(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT regexp_replace(public.search_fold(t), '(^|[@._+-])([^@._+-])', '\1' || chr(31) || '\2', 'g')
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.search_mark_name(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT regexp_replace(public.search_fold(t), '(^|[^[:alnum:]])([[:alnum:]])', '\1' || chr(31) || '\2', 'g')
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.search_marked_name(name text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(public.search_mark_name(name), '')
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.search_marked_user(name text, email text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(public.search_mark_name(name), '') || chr(10) || coalesce(public.search_mark_email(email), '')
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.search_words(name text, email text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array(
    SELECT DISTINCT w COLLATE "C" FROM (
      SELECT regexp_split_to_table(public.search_fold(coalesce(name, '')), '[^[:alnum:]]+') AS w
      UNION ALL
      SELECT regexp_split_to_table(public.search_fold(coalesce(email, '')), '[@._+-]+')
    ) words
    WHERE w <> ''
    ORDER BY 1)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.search_vector(scope uuid, name text, email text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(array(SELECT public.search_scope_key(scope) || w FROM unnest(public.search_words(name, email)) AS w))
$$;
