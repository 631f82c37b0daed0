-- The user search finds, in an organization's scope, only accounts that are set up (CONTRACT §3: a new account
-- not set up yet is pending, like an account that existed and was invited, which the search never lists; so no
-- search tells whether an address had an account). The scopes of the top-level organizations are kept for
-- set-up accounts only, recomputed when an account is set up; the nil scope of system admins keeps everyone.
CREATE FUNCTION allot_user_search_rescope(affected uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM users u WHERE u.id = ANY (affected) ORDER BY u.id FOR NO KEY UPDATE;
  WITH wanted AS (
    SELECT DISTINCT m.user_id, c.ancestor_id AS scope_id
    FROM memberships m
    JOIN users u ON u.id = m.user_id AND u.email_verified_at IS NOT NULL
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
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION allot_user_search_memberships() RETURNS trigger LANGUAGE plpgsql AS $$
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
  IF affected IS NOT NULL THEN
    PERFORM allot_user_search_rescope(affected);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION allot_user_search_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  affected uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO user_search (scope_id, user_id, name, email_key)
    SELECT '00000000-0000-0000-0000-000000000000'::uuid, n.id, n.name, lower(n.email) FROM new_rows n;
  ELSE
    UPDATE user_search s SET name = n.name, email_key = lower(n.email)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE s.user_id = n.id AND (n.name IS DISTINCT FROM o.name OR n.email IS DISTINCT FROM o.email);
    -- Set up (or, never here, unset): the organizations' scopes follow.
    SELECT array_agg(n.id) INTO affected FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.email_verified_at IS NULL) <> (o.email_verified_at IS NULL);
    IF affected IS NOT NULL THEN
      PERFORM allot_user_search_rescope(affected);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DELETE FROM user_search s USING users u
  WHERE u.id = s.user_id AND u.email_verified_at IS NULL
    AND s.scope_id <> '00000000-0000-0000-0000-000000000000'::uuid;
