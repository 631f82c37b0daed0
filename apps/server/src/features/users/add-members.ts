import { APP_MSG } from '@allot/domain/messages';
import { type ImportSkipReason, type MemberRole, type SkippedRow, skippedRow } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { queueInvitations } from '../auth/verification-service';
import { allocateSeats, freeSeats, lockOrganizationSeats, type SeatLicense } from '../licenses/seats';
import type { MailSettings } from '../mail/public-links';

/** A person to add, already checked on its own (a valid email, a name, a role the caller may give). */
export interface Candidate {
  row: number;
  email: string;
  name: string;
  role: MemberRole;
}

export interface PlannedMember extends Candidate {
  /** An account without any membership left (removed earlier): it joins again instead of a new one. */
  existingUserId: string | null;
  /** A new account, or one that never finished its invitation: it gets an invitation mail. */
  invite: boolean;
  license: SeatLicense | null;
}

export interface MemberPlan {
  toAdd: PlannedMember[];
  skipped: SkippedRow[];
  licenses: SeatLicense[];
  /** `free` is null when the organization has no licence: then nothing limits the count. */
  seats: { free: number | null; needed: number };
}

const skip = (c: Candidate, reason: ImportSkipReason) => skippedRow(c.row, c.email, reason);

/**
 * What adding these people to the organization would do, decided in the caller's transaction: who is
 * already a member, whose email belongs to another organization's account (emails are unique over the
 * system, CONTRACT §6), and who gets which licence seat (the seats stay locked until the transaction ends).
 */
export async function planMembers(
  tx: Tx,
  organizationId: string,
  candidates: readonly Candidate[],
  preferredLicenseId?: string,
): Promise<MemberPlan> {
  const licenses = await lockOrganizationSeats(tx, organizationId);
  if (preferredLicenseId && !licenses.some((l) => l.id === preferredLicenseId)) {
    throw AppError.invalid({ licenseId: APP_MSG.unknownLicense }, APP_MSG.unknownLicense);
  }
  const existing = await rows<{
    n: number;
    id: string;
    invite: boolean;
    member_here: boolean;
    taken: boolean;
  }>(
    tx,
    sql`select x.n, u.id,
          (u.email_verified_at is null or u.password_hash is null) as invite,
          exists (select 1 from memberships m where m.user_id = u.id and m.organization_id = ${organizationId}) as member_here,
          (u.is_system_admin or exists (select 1 from memberships m where m.user_id = u.id)) as taken
        from json_to_recordset(${jsonParam(candidates.map((c) => ({ n: c.row, email: c.email })))})
          as x(n int, email text)
        join users u on lower(u.email) = lower(x.email)`,
  );
  const byRow = new Map(existing.map((e) => [Number(e.n), e]));

  const skipped: SkippedRow[] = [];
  const accepted: Omit<PlannedMember, 'license'>[] = [];
  for (const candidate of candidates) {
    const account = byRow.get(candidate.row);
    if (account?.member_here) skipped.push(skip(candidate, 'already_member'));
    else if (account?.taken) skipped.push(skip(candidate, 'email_taken'));
    else
      accepted.push({ ...candidate, existingUserId: account?.id ?? null, invite: account?.invite ?? true });
  }

  const seats = allocateSeats(licenses, accepted.length, preferredLicenseId);
  const toAdd: PlannedMember[] = [];
  accepted.forEach((member, index) => {
    const license = seats[index];
    if (license === undefined) skipped.push(skip(member, 'no_free_seat'));
    else toAdd.push({ ...member, license });
  });
  skipped.sort((a, b) => a.row - b.row);
  const free =
    licenses.length === 0
      ? null
      : (preferredLicenseId ? licenses.filter((l) => l.id === preferredLicenseId) : licenses).reduce(
          (sum, l) => sum + freeSeats(l),
          0,
        );
  return { toAdd, skipped, licenses, seats: { free, needed: accepted.length } };
}

/**
 * Writes a plan: the new accounts, the memberships with their seats, the invitations. A few set-based
 * statements whatever the count. Answers the ids added, in plan order; a person whose email or membership
 * appeared meanwhile (a concurrent import) is left out and reported in `lost` as registered.
 */
export async function applyMemberPlan(
  tx: Tx,
  organizationId: string,
  plan: MemberPlan,
  mail: MailSettings,
): Promise<{ userIds: string[]; lost: SkippedRow[] }> {
  const fresh = plan.toAdd.filter((m) => m.existingUserId === null);
  const created = fresh.length
    ? await rows<{ id: string; email: string }>(
        tx,
        sql`insert into users (email, name)
            select email, name from json_to_recordset(${jsonParam(
              fresh.map((m) => ({ email: m.email, name: m.name })),
            )}) as x(email text, name text)
            on conflict (lower(email)) do nothing
            returning id, email`,
      )
    : [];
  const createdIds = new Map(created.map((c) => [c.email.toLowerCase(), c.id]));
  const withIds = plan.toAdd.map((m) => ({
    member: m,
    userId: m.existingUserId ?? createdIds.get(m.email.toLowerCase()) ?? null,
  }));

  const memberships = withIds.flatMap(({ member, userId }) =>
    userId ? [{ user_id: userId, role: member.role, license_id: member.license?.id ?? null }] : [],
  );
  const joined = memberships.length
    ? await rows<{ user_id: string }>(
        tx,
        sql`insert into memberships (user_id, organization_id, role, license_id)
            select user_id, ${organizationId}, role, license_id
            from json_to_recordset(${jsonParam(memberships)})
              as x(user_id uuid, role text, license_id uuid)
            on conflict do nothing
            returning user_id`,
      )
    : [];
  const joinedIds = new Set(joined.map((j) => j.user_id));
  const added = withIds.filter(({ userId }) => userId !== null && joinedIds.has(userId));
  await queueInvitations(
    tx,
    {
      userIds: added.filter(({ member }) => member.invite).map(({ userId }) => userId as string),
      organizationId,
    },
    mail,
  );
  return {
    userIds: added.map(({ userId }) => userId as string),
    lost: withIds
      .filter(({ userId }) => userId === null || !joinedIds.has(userId))
      .map(({ member }) => skip(member, 'email_taken')),
  };
}
