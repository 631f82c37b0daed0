-- A soft delete (or its undoing) counts an organization off (or on) for its parent's children, row by row
-- (decision 006, "Speed"). Until now a statement trigger with transition tables (0006) did it, and it ran for
-- every update of `organizations`: each credit move's update of the pools captured its rows and ran two
-- updates that found nothing to do (about a tenth of the posting's time under load, measured with pgbench).
-- This trigger fires only when `deleted_at` turns on or off. The descendants' counts keep being made by the
-- closure triggers (a delete removes the organization's closure rows first); the update below covers an
-- organization whose closure rows are still there.
DROP TRIGGER organizations_count_update ON organizations;
--> statement-breakpoint
CREATE FUNCTION allot_count_deleted_child() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_n integer := CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END;
BEGIN
  IF NEW.parent_id IS NOT NULL THEN
    UPDATE organizations SET sub_organizations_count = sub_organizations_count + v_n WHERE id = NEW.parent_id;
  END IF;
  UPDATE organizations o SET descendants_count = o.descendants_count + v_n
    FROM organization_closure c
    WHERE c.descendant_id = NEW.id AND c.depth > 0 AND o.id = c.ancestor_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organizations_count_deleted AFTER UPDATE OF deleted_at ON organizations
  FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION allot_count_deleted_child();
--> statement-breakpoint
-- What is left of 0006's function: the count of a new organization for its parent (the insert trigger). Its
-- update branch served the trigger dropped above.
CREATE OR REPLACE FUNCTION allot_count_children() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  UPDATE organizations o SET sub_organizations_count = o.sub_organizations_count + d.n
  FROM (SELECT parent_id AS id, count(*) AS n FROM new_rows
        WHERE parent_id IS NOT NULL AND deleted_at IS NULL GROUP BY 1) d
  WHERE o.id = d.id;
  RETURN NULL;
END $$;
