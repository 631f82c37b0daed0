CREATE TABLE "member_credits_counted" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"balance" bigint NOT NULL,
	"organization_ids" uuid[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_credits_queue" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subtree_member_credits" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"credits" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- People whose memberships change wait in member_credits_queue for the roll-up (decision 014, "Members'
-- credits"). A membership is keyed by (user, organization), so an update that keeps the key (role, seat)
-- changes nothing counted and queues nothing.
CREATE FUNCTION member_credits_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO member_credits_queue (user_id)
      SELECT DISTINCT user_id FROM (
        SELECT o.user_id FROM old_rows o WHERE NOT EXISTS (
          SELECT 1 FROM new_rows n WHERE n.user_id = o.user_id AND n.organization_id = o.organization_id)
        UNION ALL
        SELECT n.user_id FROM new_rows n WHERE NOT EXISTS (
          SELECT 1 FROM old_rows o WHERE o.user_id = n.user_id AND o.organization_id = n.organization_id)) c;
  ELSE
    INSERT INTO member_credits_queue (user_id) SELECT DISTINCT user_id FROM changed_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_member_credits_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION member_credits_enqueue();
--> statement-breakpoint
CREATE TRIGGER memberships_member_credits_delete AFTER DELETE ON memberships
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION member_credits_enqueue();
--> statement-breakpoint
CREATE TRIGGER memberships_member_credits_update AFTER UPDATE ON memberships
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_credits_enqueue();
--> statement-breakpoint
-- The count as it stands: every person with a balance, in the ancestors-or-self of their memberships.
-- Journal transactions still queued for the roll-up count their people again from live figures: no harm.
INSERT INTO member_credits_counted (user_id, balance, organization_ids)
  SELECT a.user_id, a.balance, o.ids
  FROM credit_accounts a
  CROSS JOIN LATERAL (
    SELECT array_agg(DISTINCT c.ancestor_id ORDER BY c.ancestor_id) AS ids
    FROM memberships m JOIN organization_closure c ON c.descendant_id = m.organization_id
    WHERE m.user_id = a.user_id) o
  WHERE a.kind = 'user' AND a.balance <> 0 AND o.ids IS NOT NULL;
--> statement-breakpoint
INSERT INTO subtree_member_credits (organization_id, credits)
  SELECT org, sum(balance) FROM member_credits_counted, unnest(organization_ids) AS org GROUP BY org;
