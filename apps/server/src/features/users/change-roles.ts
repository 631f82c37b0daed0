import { APP_MSG } from '@allot/domain/messages';
import type { RoleChange, UpdateUserRoleRequest } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { endSessionsWithoutPanelAccess, endSessionsWithoutRequiredMfa } from '../auth';
import { lockOrganization, requireOrganizationAccess } from '../organization-access';
import { auditMemberChanges } from './member-audit';
import { lockMembers, peopleTable, requireAssignable, requireNotAbove } from './member-guards';

/**
 * Makes a member the owner: the current owner (if another) becomes an admin first (one owner per
 * organization). Call with the organization row locked, so that two transfers do not cross.
 */
export async function transferOwnership(
  tx: Tx,
  organizationId: string,
  userId: string,
): Promise<RoleChange[]> {
  const demoted = await rows<{ user_id: string }>(
    tx,
    sql`update memberships set role = 'organization_admin', updated_at = now()
        where organization_id = ${organizationId} and role = 'organization_owner' and user_id <> ${userId}
        returning user_id`,
  );
  await tx.execute(sql`update memberships set role = 'organization_owner', updated_at = now()
    where organization_id = ${organizationId} and user_id = ${userId}`);
  // An invitation to own it that is still open would make a second owner when accepted: it offers admin now.
  await tx.execute(sql`update membership_invitations set role = 'organization_admin', updated_at = now()
    where organization_id = ${organizationId} and role = 'organization_owner'`);
  return [
    { userId, organizationId, roleName: 'organization_owner' },
    ...demoted.map((d) => ({ userId: d.user_id, organizationId, roleName: 'organization_admin' as const })),
  ];
}

/**
 * POST /api/user/{id}/update/role (CONTRACT §2): needs assign_roles; roles up to the caller's own;
 * owner only from an owner; the owner's own role changes only by a transfer. Answers every change made.
 */
export async function updateUserRole(
  tx: Tx,
  user: AuthUser,
  userId: string,
  input: UpdateUserRoleRequest,
): Promise<RoleChange[]> {
  const access = await requireOrganizationAccess(tx, user, input.organizationId, ['assign_roles']);
  requireAssignable(access.role, input.role);
  await lockOrganization(tx, input.organizationId);
  const [member] = await lockMembers(tx, input.organizationId, [userId]);
  if (!member) throw AppError.notFound();
  requireNotAbove(access.role, [member]);
  const unchanged = [{ userId, organizationId: input.organizationId, roleName: member.role }];
  if (member.role === input.role) return unchanged;
  if (member.role === 'organization_owner') {
    throw AppError.of('business_rule', APP_MSG.ownerRoleChanges);
  }
  // An invitation offers the new role; the ownership moves only when the invited account joins.
  const audit = {
    organizationId: input.organizationId,
    actorId: user.userId,
    action: 'member_role_changed' as const,
  };
  if (input.role === 'organization_owner' && member.kind === 'member') {
    const changes = await transferOwnership(tx, input.organizationId, userId);
    await auditMemberChanges(
      tx,
      audit,
      changes.map((c) => ({
        userId: c.userId,
        before: { role: c.userId === userId ? member.role : 'organization_owner' },
        after: { role: c.roleName },
      })),
    );
    await endSessionsWithoutRequiredMfa(tx, [userId]);
    return changes;
  }
  await tx.execute(sql`update ${peopleTable(member.kind)} set role = ${input.role}, updated_at = now()
    where organization_id = ${input.organizationId} and user_id = ${member.userId}`);
  // Lowered to teacher and no owner or admin role left anywhere: the account's sessions end (CONTRACT §3).
  await endSessionsWithoutPanelAccess(tx, [member.userId]);
  // Raised to owner or admin in a tree that requires two-factor: its sessions that did not prove it end.
  await endSessionsWithoutRequiredMfa(tx, [member.userId]);
  await auditMemberChanges(tx, audit, [
    { userId: member.userId, before: { role: member.role }, after: { role: input.role } },
  ]);
  return [{ userId, organizationId: input.organizationId, roleName: input.role }];
}
