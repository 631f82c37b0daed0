import { type ImportSkipReason, type MemberRole, type SkippedRow, skippedRow } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { rows } from '../../db/rows';
import { RetryTransaction } from '../../db/transaction';
import type { AuthUser } from '../../http/authenticate';
import { recordAudit } from '../audit';
import { endSessionsWithoutRequiredMfa, queueInvitations } from '../auth';
import {
  allocateSeats,
  freeSeats,
  lockOrganizationSeats,
  type SeatLicense,
  unknownLicense,
} from '../licenses';
import type { MailSettings } from '../mail';
import { transferOwnership } from './change-roles';
import { countInvitations, queueMembershipInvitations } from './invitations';

/** A person to add, already checked on its own (a valid email, a name, a role the caller may give). */
export interface Candidate {
  row: number;
  email: string;
  name: string;
  role: MemberRole;
}

/**
 * How a planned person joins (CONTRACT §3): an unknown address gets a new account, a member at once, and
 * the invitation to set it up; the caller's own account joins at once (nobody else's consent is needed);
 * any other account that already exists is only invited, and joins when it enters the mailed code.
 */
export type JoinKind = 'new_account' | 'own_account' | 'invitation';

export interface PlannedMember extends Candidate {
  joins: JoinKind;
  existingUserId: string | null;
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
 * What adding these people to the organization would do, decided in the caller's transaction (the
 * organization locked): who is already a member or invited, how each one joins, and who gets which licence
 * seat (the seats stay locked until the transaction ends). Whether an address has an account elsewhere
 * changes nothing the caller sees: both join the plan alike.
 */
export async function planMembers(
  tx: Tx,
  organizationId: string,
  candidates: readonly Candidate[],
  options: { caller: AuthUser; preferredLicenseId?: string | undefined },
): Promise<MemberPlan> {
  const { preferredLicenseId } = options;
  const licenses = await lockOrganizationSeats(tx, organizationId);
  if (preferredLicenseId && !licenses.some((l) => l.id === preferredLicenseId)) {
    throw unknownLicense();
  }
  const existing = await rows<{ n: number; id: string; member_here: boolean; invited_here: boolean }>(
    tx,
    sql`select x.n, u.id,
          exists (select 1 from memberships m where m.user_id = u.id and m.organization_id = ${organizationId}) as member_here,
          exists (select 1 from membership_invitations i where i.user_id = u.id and i.organization_id = ${organizationId}) as invited_here
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
    else if (account?.invited_here) skipped.push(skip(candidate, 'already_invited'));
    else {
      const joins: JoinKind = !account
        ? 'new_account'
        : account.id === options.caller.userId
          ? 'own_account'
          : 'invitation';
      accepted.push({ ...candidate, joins, existingUserId: account?.id ?? null });
    }
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
 * Writes a plan: the new accounts, the memberships with their seats (new accounts, the caller's own), the
 * invitations with their held seats (accounts that existed), and the mails of both. A few set-based
 * statements whatever the count. Answers the ids the organization's lists name them by, in plan order: a
 * member's user id, an invited account's invitation id (CONTRACT §3).
 *
 * An address that got an account meanwhile (a concurrent request) makes the whole transaction run again
 * (`RetryTransaction`): planned afresh, that person is invited like any existing account.
 */
export async function applyMemberPlan(
  tx: Tx,
  organizationId: string,
  plan: MemberPlan,
  context: { caller: AuthUser; mail: MailSettings },
): Promise<string[]> {
  const invitationsSent = plan.toAdd.filter((m) => m.joins !== 'own_account').length;
  await countInvitations(tx, organizationId, invitationsSent, context.mail);

  // Inserted in one order (by address), so that two imports sharing addresses cannot deadlock.
  const fresh = plan.toAdd
    .filter((m) => m.joins === 'new_account')
    .sort((a, b) => (a.email.toLowerCase() < b.email.toLowerCase() ? -1 : 1));
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
  if (created.length !== fresh.length) throw new RetryTransaction('an address got an account meanwhile');
  const createdIds = new Map(created.map((c) => [c.email.toLowerCase(), c.id]));
  const withIds = plan.toAdd.map((member) => ({
    member,
    userId: member.existingUserId ?? (createdIds.get(member.email.toLowerCase()) as string),
  }));

  const joining = withIds.filter(({ member }) => member.joins !== 'invitation');
  if (joining.length > 0) {
    // An owner joins as admin and then takes the ownership over: there is never a second owner.
    await tx.execute(sql`insert into memberships (user_id, organization_id, role, license_id)
      select user_id, ${organizationId}, role, license_id
      from json_to_recordset(${jsonParam(
        joining.map(({ member, userId }) => ({
          user_id: userId,
          role: member.role === 'organization_owner' ? 'organization_admin' : member.role,
          license_id: member.license?.id ?? null,
        })),
      )}) as x(user_id uuid, role text, license_id uuid)`);
    for (const { member, userId } of joining) {
      if (member.role === 'organization_owner') await transferOwnership(tx, organizationId, userId);
    }
    // Owners and admins of a tree that requires two-factor: their sessions that did not prove it end (§3).
    await endSessionsWithoutRequiredMfa(
      tx,
      joining.filter(({ member }) => member.role !== 'user').map(({ userId }) => userId),
    );
  }
  const invited = withIds.filter(({ member }) => member.joins === 'invitation');
  const invitationIds = new Map<string, string>();
  if (invited.length > 0) {
    const inserted = await rows<{ id: string; user_id: string }>(
      tx,
      sql`insert into membership_invitations
          (user_id, organization_id, role, license_id, invited_name, invited_email, invited_by)
        select user_id, ${organizationId}, role, license_id, name, email, ${context.caller.userId}
        from json_to_recordset(${jsonParam(
          invited.map(({ member, userId }) => ({
            user_id: userId,
            role: member.role,
            license_id: member.license?.id ?? null,
            name: member.name,
            email: member.email,
          })),
        )}) as x(user_id uuid, role text, license_id uuid, name text, email text)
        returning id, user_id`,
    );
    for (const row of inserted) invitationIds.set(row.user_id, row.id);
  }
  // How the organization names each person from now on: an invited account by its invitation's id.
  const outwardId = ({ member, userId }: (typeof withIds)[number]) =>
    member.joins === 'invitation' ? (invitationIds.get(userId) as string) : userId;
  await recordAudit(
    tx,
    withIds.map((added) => ({
      organizationId,
      actorId: context.caller.userId,
      action: 'member_added' as const,
      target: {
        type: 'member' as const,
        id: outwardId(added),
        label: `${added.member.name} <${added.member.email}>`,
      },
      after: {
        email: added.member.email,
        role: added.member.role,
        licence: added.member.license?.licenseType ?? null,
        ...(added.member.joins === 'invitation' ? { invited: true } : {}),
      },
    })),
  );
  await queueInvitations(
    tx,
    {
      userIds: withIds.filter(({ member }) => member.joins === 'new_account').map(({ userId }) => userId),
      organizationId,
    },
    context.mail,
  );
  await queueMembershipInvitations(
    tx,
    { organizationId, userIds: invited.map(({ userId }) => userId), inviterName: context.caller.name },
    context.mail,
  );
  return withIds.map(outwardId);
}
