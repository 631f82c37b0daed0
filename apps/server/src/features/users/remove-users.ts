import { APP_MSG } from '@allot/domain/messages';
import type { RemoveUsersRequest } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { endSessionsWithoutPanelAccess } from '../auth';
import { organizationPoolAccountId, postCreditTransaction } from '../credits';
import { lockOrganization, requireOrganizationAccess } from '../organization-access';
import { cancelInvitations } from './invitations';
import { auditMemberChanges } from './member-audit';
import { lockMembers, requireNotAbove } from './member-guards';

/**
 * POST /api/user/remove (CONTRACT §6): ends these memberships, which frees their seats, and moves the
 * credits they hold in this organization into its shared pool, logged, in one transaction (CONTRACT §5: a
 * member's credits are the organization's; what they hold elsewhere stays there). The owner stays until another
 * member is made owner. The accounts stay (the journal names them; they may join again). An account invited and
 * not joined yet is uninvited: its held seat is freed, its code stops working, and credits held for it go back
 * to the shared pool too.
 */
export async function removeUsers(tx: Tx, user: AuthUser, input: RemoveUsersRequest) {
  const access = await requireOrganizationAccess(tx, user, input.organizationId, ['manage_users']);
  const requested = [...new Set(input.userIds.map((id) => id.toLowerCase()))];
  if (!requested.every(isUuid)) throw AppError.notFound();
  // The lock order of organizations/locks.ts: credit accounts (the shared pool and the balances these people
  // hold here, in id order, before any balance is read: the whole balance moves), the organization, then the
  // memberships. A balance opened meanwhile by a move to one of them: that move waits for the membership
  // (the journal holds it) and is refused once it is gone, or commits first and this transaction, refused at
  // commit (CR009), runs again and moves it too. The organization with `no key update`, as every change of
  // members: the removal updates its row (its count of users, its pool), and taking `key share` first, then
  // that after the memberships, deadlocked with a change of the same member (issue 31).
  const shared = await organizationPoolAccountId(tx, input.organizationId, 'shared');
  const accounts = await rows<{ id: string; user_id: string | null; balance: string | number }>(
    tx,
    sql`select id, user_id, balance from credit_accounts
        where id = ${shared} or (kind = 'user' and organization_id = ${input.organizationId}
          and user_id in ${uuidsIn(requested)})
        order by id for update`,
  );
  const organization = await lockOrganization(tx, input.organizationId);
  const people = await lockMembers(tx, input.organizationId, requested);
  requireNotAbove(access.role, people);
  const members = people.filter((p) => p.kind === 'member');
  const invitedIds = people.filter((p) => p.kind === 'invitation').map((p) => p.userId);
  if (members.some((m) => m.role === 'organization_owner')) {
    throw AppError.of('business_rule', APP_MSG.ownerCannotBeRemoved);
  }
  const userIds = members.map((m) => m.userId);
  const leaving = people.map((p) => p.userId);
  const held = accounts.filter(
    (a) => a.user_id !== null && leaving.includes(a.user_id) && Number(a.balance) > 0,
  );
  const creditsReturned = held.reduce((sum, a) => sum + Number(a.balance), 0);
  if (creditsReturned > 0) {
    const names = people.filter((m) => held.some((a) => a.user_id === m.userId)).map((m) => m.name);
    await postCreditTransaction(tx, {
      action: 'reclaim_users',
      actorId: user.userId,
      description:
        names.length === 1
          ? `${names[0]} was removed from ${organization.name}: their credits went back to the shared pool`
          : `${names.length} users were removed from ${organization.name}: their credits went back to the shared pool`,
      lines: [
        ...held.map((a) => ({ accountId: a.id, amount: -Number(a.balance) })),
        { accountId: shared, amount: creditsReturned },
      ],
    });
  }
  // Before the rows go: an invited person is labelled with what the inviter typed.
  await auditMemberChanges(
    tx,
    { organizationId: input.organizationId, actorId: user.userId, action: 'member_removed' },
    people.map((p) => {
      const credits = held.find((a) => a.user_id === p.userId);
      return {
        userId: p.userId,
        before: {
          role: p.role,
          ...(p.kind === 'invitation' ? { invited: true } : {}),
          ...(credits ? { creditsReturned: Number(credits.balance) } : {}),
        },
        after: null,
      };
    }),
  );
  if (userIds.length > 0) {
    await tx.execute(sql`delete from memberships where organization_id = ${input.organizationId}
      and user_id in ${uuidsIn(userIds)}`);
    // Those who held their last owner or admin role here lose the panel: their sessions end (CONTRACT §3).
    await endSessionsWithoutPanelAccess(tx, userIds);
  }
  if (invitedIds.length > 0) await cancelInvitations(tx, input.organizationId, invitedIds);
  return { removed: people.map((p) => p.id), creditsReturned };
}
