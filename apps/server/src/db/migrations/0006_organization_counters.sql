ALTER TABLE "organizations" ADD COLUMN "users_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "sub_organizations_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "descendants_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Members of an organization: kept by statement-level triggers on memberships (one update per
-- organization per statement, so a bulk import of 10,000 members touches its organization once).
CREATE FUNCTION allot_count_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE organizations o SET users_count = o.users_count + d.n
    FROM (SELECT organization_id AS id, count(*) AS n FROM new_rows GROUP BY 1) d WHERE o.id = d.id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE organizations o SET users_count = o.users_count - d.n
    FROM (SELECT organization_id AS id, count(*) AS n FROM old_rows GROUP BY 1) d WHERE o.id = d.id;
  ELSIF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows x ON x.user_id = n.user_id AND x.organization_id <> n.organization_id) THEN
    UPDATE organizations o SET users_count = o.users_count + d.n
    FROM (SELECT id, sum(n) AS n FROM (
            SELECT organization_id AS id, 1 AS n FROM new_rows
            UNION ALL SELECT organization_id, -1 FROM old_rows) moved
          GROUP BY id HAVING sum(n) <> 0) d
    WHERE o.id = d.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_count_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_members();
--> statement-breakpoint
CREATE TRIGGER memberships_count_delete AFTER DELETE ON memberships
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_members();
--> statement-breakpoint
CREATE TRIGGER memberships_count_update AFTER UPDATE ON memberships
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_members();
--> statement-breakpoint
-- Live children and live descendants. A new organization counts for its parent when inserted and for
-- every ancestor when its closure rows are written; a soft delete (organizations are never removed, the
-- credit journal keeps their accounts) takes it off both. Updates these triggers make themselves
-- (pg_trigger_depth() > 1) are counter changes and are skipped.
CREATE FUNCTION allot_count_children() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    UPDATE organizations o SET sub_organizations_count = o.sub_organizations_count + d.n
    FROM (SELECT parent_id AS id, count(*) AS n FROM new_rows
          WHERE parent_id IS NOT NULL AND deleted_at IS NULL GROUP BY 1) d
    WHERE o.id = d.id;
  ELSE
    WITH changed AS (
      SELECT n.id, n.parent_id, CASE WHEN n.deleted_at IS NULL THEN 1 ELSE -1 END AS n
      FROM new_rows n JOIN old_rows x ON x.id = n.id
      WHERE (n.deleted_at IS NULL) <> (x.deleted_at IS NULL)
    ), parents AS (
      UPDATE organizations o SET sub_organizations_count = o.sub_organizations_count + d.n
      FROM (SELECT parent_id AS id, sum(n) AS n FROM changed WHERE parent_id IS NOT NULL GROUP BY 1) d
      WHERE o.id = d.id
      RETURNING o.id
    )
    UPDATE organizations o SET descendants_count = o.descendants_count + d.n
    FROM (SELECT c.ancestor_id AS id, sum(ch.n) AS n FROM changed ch
          JOIN organization_closure c ON c.descendant_id = ch.id AND c.depth > 0 GROUP BY 1) d
    WHERE o.id = d.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organizations_count_insert AFTER INSERT ON organizations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_children();
--> statement-breakpoint
CREATE TRIGGER organizations_count_update AFTER UPDATE ON organizations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_children();
--> statement-breakpoint
-- Ancestry rows of a live organization count it for the ancestor (written on creation, removed when
-- the organization is deleted: whichever of the two a delete does first, it is counted off once).
CREATE FUNCTION allot_count_descendants() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE organizations o SET descendants_count = o.descendants_count + d.n
    FROM (SELECT c.ancestor_id AS id, count(*) AS n FROM new_rows c
          JOIN organizations x ON x.id = c.descendant_id AND x.deleted_at IS NULL
          WHERE c.depth > 0 GROUP BY 1) d
    WHERE o.id = d.id;
  ELSE
    UPDATE organizations o SET descendants_count = o.descendants_count - d.n
    FROM (SELECT c.ancestor_id AS id, count(*) AS n FROM old_rows c
          JOIN organizations x ON x.id = c.descendant_id AND x.deleted_at IS NULL
          WHERE c.depth > 0 GROUP BY 1) d
    WHERE o.id = d.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organization_closure_count_insert AFTER INSERT ON organization_closure
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_descendants();
--> statement-breakpoint
CREATE TRIGGER organization_closure_count_delete AFTER DELETE ON organization_closure
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_descendants();
--> statement-breakpoint
UPDATE organizations o SET
  users_count = (SELECT count(*) FROM memberships m WHERE m.organization_id = o.id),
  sub_organizations_count = (SELECT count(*) FROM organizations c WHERE c.parent_id = o.id AND c.deleted_at IS NULL),
  descendants_count = (SELECT count(*) FROM organization_closure c JOIN organizations d ON d.id = c.descendant_id
                       WHERE c.ancestor_id = o.id AND c.depth > 0 AND d.deleted_at IS NULL);
