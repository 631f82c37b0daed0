-- A pending invitation is named by an id of its own in every answer (CONTRACT §3: a pending person is named by
-- an invitation id), never by the id of the account it went to, which may belong to another tenant.
ALTER TABLE "membership_invitations" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "membership_invitations_id_key" ON "membership_invitations" USING btree ("id");
