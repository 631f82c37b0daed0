-- Seats in use never above the seats a licence holds (issue 30, decision 009), SQLSTATE LI003: the second line
-- behind the server's locks. Checked at the end of every statement that gives a licence a seat holder (a
-- membership or an invitation inserted, or moved onto it) or takes seats from it (`max_users` lowered).
-- Removing holders, or adding seats, is never refused: a licence left overbooked by older code can be put
-- right. The licences are locked before the count (`no key update`: it waits for any other change of their
-- seats or holders, not for the foreign-key checks of new holders), and the count is a statement of its own
-- (a fresh snapshot under READ COMMITTED): of two transactions racing for the last seat, the second one's
-- check waits for the first to end and counts its seat, whatever the server code locked. The server's paths
-- hold these rows `for update` already (features/licenses/seats.ts), so there the lock never waits.
CREATE FUNCTION license_seats_within(p_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_over record;
BEGIN
  PERFORM 1 FROM licenses WHERE id = ANY(p_ids) ORDER BY id FOR NO KEY UPDATE;
  SELECT l.id, l.max_users, h.used INTO v_over
    FROM licenses l
    CROSS JOIN LATERAL (SELECT (SELECT count(*) FROM memberships m WHERE m.license_id = l.id)
      + (SELECT count(*) FROM membership_invitations i WHERE i.license_id = l.id) AS used) h
    WHERE l.id = ANY(p_ids) AND h.used > l.max_users
    LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'licence % would have % seats in use of % held', v_over.id, v_over.used, v_over.max_users
      USING ERRCODE = 'LI003';
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION license_seat_holders_added() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v_ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT license_id) INTO v_ids FROM new_rows WHERE license_id IS NOT NULL;
  IF v_ids IS NOT NULL THEN PERFORM license_seats_within(v_ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update statement's rows whose licence changed (to another one, not to none): matched on the key.
CREATE FUNCTION license_seat_holders_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v_ids uuid[];
BEGIN
  SELECT array_agg(DISTINCT n.license_id) INTO v_ids
    FROM new_rows n JOIN old_rows o ON o.user_id = n.user_id AND o.organization_id = n.organization_id
    WHERE n.license_id IS NOT NULL AND n.license_id IS DISTINCT FROM o.license_id;
  IF v_ids IS NOT NULL THEN PERFORM license_seats_within(v_ids); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION license_seats_lowered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM license_seats_within(ARRAY[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Named to fire before the seat-days triggers of migration 0016 (triggers fire in name order): the check
-- must not lean on the lock those take.
CREATE TRIGGER memberships_check_seats_insert AFTER INSERT ON memberships
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_holders_added();
--> statement-breakpoint
CREATE TRIGGER memberships_check_seats_update AFTER UPDATE ON memberships
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_holders_moved();
--> statement-breakpoint
CREATE TRIGGER membership_invitations_check_seats_insert AFTER INSERT ON membership_invitations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_holders_added();
--> statement-breakpoint
CREATE TRIGGER membership_invitations_check_seats_update AFTER UPDATE ON membership_invitations
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION license_seat_holders_moved();
--> statement-breakpoint
CREATE TRIGGER licenses_check_seats AFTER UPDATE OF max_users ON licenses
  FOR EACH ROW WHEN (NEW.max_users < OLD.max_users) EXECUTE FUNCTION license_seats_lowered();
