-- `users_count` counts the people of an organization's users list: its members and the accounts invited to it
-- (CONTRACT §3: a pending person reads alike whether the address had an account, a new account being a member
-- and an existing one an invitation). Accepting an invitation deletes it and adds the membership: no change.
CREATE TRIGGER membership_invitations_count_insert AFTER INSERT ON membership_invitations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_members();
--> statement-breakpoint
CREATE TRIGGER membership_invitations_count_delete AFTER DELETE ON membership_invitations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION allot_count_members();
--> statement-breakpoint
UPDATE organizations o SET users_count = c.n
  FROM (SELECT x.id, (SELECT count(*) FROM memberships m WHERE m.organization_id = x.id)
          + (SELECT count(*) FROM membership_invitations i WHERE i.organization_id = x.id) AS n
        FROM organizations x) c
  WHERE o.id = c.id AND o.users_count <> c.n;
