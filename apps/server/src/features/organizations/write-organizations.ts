import { APP_MSG } from '@allot/domain/messages';
import type { CreateOrganizationRequest, UpdateOrganizationRequest } from '@allot/domain/organizations';
import { ROLE_RANK } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { changedFields, recordAudit } from '../audit';
import { endSessionsWithoutPanelAccess } from '../auth';
import { organizationPoolAccountId, postCreditTransaction, systemAccountId } from '../credits';
import { rollUpCreditUsage } from '../insights';
import { voidOpenInvoicesOf } from '../invoices';
import { returnLicensesToParent } from '../licenses';
import type { MailSettings } from '../mail';
import {
  type LockedOrganization,
  lockOrganizationChain,
  requireOrganizationAccess,
  requireSystemAdmin,
} from '../organization-access';
import { cancelOpenRequestsOf, holdOpenRequestsOf } from '../requests';
import { applyMemberPlan, planMembers } from '../users';
import { getOrganization } from './get-organization';
import { insertOrganization, renameInTree } from './tree';

const FULL = { licenses: true, subOrganizations: false, credits: true, permissionsAndRole: true };

export const MSG_HAS_CHILDREN = 'This organization still has sub-organizations. Delete them first.';

/**
 * Creates a root organization (needs create_root_org) or a child (create_child_org on the parent).
 * With adminEmail, that person is its owner: a new account for an unknown address (invited to set it up),
 * the caller's own account at once, any other existing account only when it accepts the mailed invitation
 * (CONTRACT §3); until then the organization shows what the caller typed.
 */
export async function createOrganization(
  tx: Tx,
  user: AuthUser,
  input: CreateOrganizationRequest,
  mail: MailSettings,
) {
  const parentId = input.parentOrganizationId || null;
  if (parentId) {
    const access = await requireOrganizationAccess(tx, user, parentId, ['create_child_org']);
    if (input.adminEmail && ROLE_RANK[access.role] > ROLE_RANK.organization_owner) {
      throw AppError.forbidden(APP_MSG.onlyOwnerMakesOwner);
    }
  } else {
    await requireSystemAdmin(tx, user);
  }

  // The counters of every ancestor move: the chain is locked root first (locks.ts), which also holds
  // the parent against a concurrent delete until this child is in.
  if (parentId) await lockOrganizationChain(tx, parentId);
  const created = await insertOrganization(tx, {
    name: input.name,
    type: input.type,
    phoneNumber: input.phoneNumber,
    parentId,
  });
  await recordAudit(tx, {
    organizationId: created,
    actorId: user.userId,
    action: 'organization_created',
    target: { type: 'organization', id: created, label: input.name },
    after: { name: input.name, type: input.type, phoneNumber: input.phoneNumber },
  });
  if (input.adminEmail) {
    const owner = {
      row: 1,
      email: input.adminEmail,
      name: input.adminName?.trim() || input.adminEmail.split('@')[0] || input.adminEmail,
      role: 'organization_owner' as const,
    };
    const plan = await planMembers(tx, created, [owner], { caller: user });
    await applyMemberPlan(tx, created, plan, { caller: user, mail });
  }
  // The answer is read in the same transaction (it was read just after it): it sees the new organization.
  return getOrganization(tx, user, created, FULL);
}

export async function updateOrganization(
  tx: Tx,
  user: AuthUser,
  id: string,
  input: UpdateOrganizationRequest,
) {
  await requireOrganizationAccess(tx, user, id, ['update_org']);
  const [old] = await rows<{ name: string; type: string; phoneNumber: string }>(
    tx,
    sql`select name, type, phone_number as "phoneNumber" from organizations
        where id = ${id} and deleted_at is null for update`,
  );
  if (!old) throw AppError.notFound();
  await tx.execute(sql`update organizations set name = ${input.name}, type = ${input.type},
    phone_number = ${input.phoneNumber}, updated_at = now() where id = ${id} and deleted_at is null`);
  await renameInTree(tx, id, input.name);
  const change = changedFields(old, { name: input.name, type: input.type, phoneNumber: input.phoneNumber });
  if (change) {
    await recordAudit(tx, {
      organizationId: id,
      actorId: user.userId,
      action: 'organization_updated',
      target: { type: 'organization', id, label: input.name },
      ...change,
    });
  }
  return getOrganization(tx, user, id, FULL);
}

/**
 * Deletes a leaf organization (CONTRACT §4): refused while it has sub-organizations; its credits go to the
 * parent's pools (a root's to the system account), logged; its licence seats join the parent's licence of
 * the same type; its memberships end. The row stays, marked deleted, so the credit journal keeps its accounts.
 */
export async function deleteOrganization(tx: Tx, user: AuthUser, id: string) {
  await requireOrganizationAccess(tx, user, id, ['delete_org']);
  // Its open requests first, as an approval locks a request before the accounts it moves (decision 017).
  await holdOpenRequestsOf(tx, id);
  // In the lock order of locks.ts: the credit accounts of the organization (its pools, its members'
  // balances) and where the journal moves them below, its parent's pools or, for a root, the system
  // account, then the chain root first, the organization itself for update.
  await tx.execute(sql`select id from credit_accounts
    where organization_id = ${id}
      or (kind in ('shared', 'protected') and organization_id = (select parent_id from organizations where id = ${id}))
      or (kind = 'system' and exists (select 1 from organizations where id = ${id} and parent_id is null))
    order by id for update`);
  const chain = await lockOrganizationChain(tx, id, 'update');
  const org = chain.at(-1) as LockedOrganization;
  if (!org.parentId) await requireSystemAdmin(tx, user, { message: APP_MSG.rootDeleteSystemAdminOnly });
  const children = await rows(
    tx,
    sql`select 1 from organizations where parent_id = ${id} and deleted_at is null limit 1`,
  );
  if (children.length > 0) throw AppError.of('conflict', MSG_HAS_CHILDREN);

  for (const pool of ['shared', 'protected'] as const) {
    const from = await organizationPoolAccountId(tx, id, pool);
    const [balance] = await rows<{ balance: string | number }>(
      tx,
      // Locked: the amount moved must be the whole balance, whatever runs beside this.
      sql`select balance from credit_accounts where id = ${from} for update`,
    );
    const amount = Number(balance?.balance ?? 0);
    if (amount === 0) continue;
    const to = org.parentId
      ? await organizationPoolAccountId(tx, org.parentId, pool)
      : await systemAccountId(tx);
    await postCreditTransaction(tx, {
      action: 'organization_deleted',
      actorId: user.userId,
      description: `${org.name} was deleted: its ${pool} pool went back`,
      lines: [
        { accountId: from, amount: -amount },
        { accountId: to, amount },
      ],
    });
  }

  // Its members' balances (CONTRACT §5): the memberships end, their credits go where the pools went.
  const held = await rows<{ id: string; balance: string | number }>(
    tx,
    sql`select id, balance from credit_accounts
        where kind = 'user' and organization_id = ${id} and balance > 0 order by id`,
  );
  const membersCredits = held.reduce((sum, a) => sum + Number(a.balance), 0);
  if (membersCredits > 0) {
    await postCreditTransaction(tx, {
      action: 'organization_deleted',
      actorId: user.userId,
      description: `${org.name} was deleted: its members' credits went back`,
      lines: [
        ...held.map((a) => ({ accountId: a.id, amount: -Number(a.balance) })),
        {
          accountId: org.parentId
            ? await organizationPoolAccountId(tx, org.parentId, 'shared')
            : await systemAccountId(tx),
          amount: membersCredits,
        },
      ],
    });
  }
  const ended = await rows<{ user_id: string }>(
    tx,
    sql`delete from memberships where organization_id = ${id} returning user_id`,
  );
  // Its members who held no owner or admin role anywhere else lose the panel: their sessions end.
  await endSessionsWithoutPanelAccess(
    tx,
    ended.map((m) => m.user_id),
  );
  await tx.execute(sql`delete from membership_invitations where organization_id = ${id}`);
  await returnLicensesToParent(tx, { id, name: org.name, parentId: org.parentId }, user.userId);
  await voidOpenInvoicesOf(tx, id, user.userId);
  await cancelOpenRequestsOf(tx, id, user.userId);
  // The pools below each ancestor are counted by the roll-up from the closure rows (decision 016): every
  // line of this organization's pools, its delete's own included, is counted before they go.
  await rollUpCreditUsage(tx);
  await tx.execute(sql`delete from organization_closure where descendant_id = ${id}`);
  await tx.execute(sql`update organizations set deleted_at = now(), updated_at = now() where id = ${id}`);
  await recordAudit(tx, {
    organizationId: id,
    actorId: user.userId,
    action: 'organization_deleted',
    target: { type: 'organization', id, label: org.name },
    before: { name: org.name },
  });
  return { success: true };
}
