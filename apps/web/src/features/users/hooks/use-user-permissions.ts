import { APP_MSG } from '@allot/domain/messages';
import type { Organization } from '@allot/domain/organizations';
import { assignableRoles, ROLE_RANK } from '@allot/domain/roles';
import { MEMBER_ROLES, type MemberRole, type OrganizationUser } from '@allot/domain/users';
import { useSession } from '../../../lib/session';
import { useOrganizationPermissions } from '../../organizations/hooks/use-organization-permissions';

function isMemberRole(role: string): role is MemberRole {
  return (MEMBER_ROLES as readonly string[]).includes(role);
}

/**
 * What the caller may do on the Users screen, from its role in the shown organization (CONTRACT §2):
 * manage_users for the screen, assign_roles for roles; a caller acts only on members of its own rank
 * and lower, and only an owner or a system admin hands out the owner role. Ownership moves by making
 * someone else owner, so the owner's row has no role change or removal; nobody removes themselves here.
 * The server checks all of it again; these rules only hide what it would refuse.
 */
export function useUserPermissions(organization: Organization) {
  const { can, role } = useOrganizationPermissions(organization);
  const { userId } = useSession();
  const manage = can('manage_users');
  const assign = can('assign_roles');
  const roles: MemberRole[] = assign ? assignableRoles(role).filter(isMemberRole) : ['user'];
  const atOrBelow = (user: OrganizationUser) => role !== null && ROLE_RANK[user.role] >= ROLE_RANK[role];
  const isOwnerOrSelf = (user: OrganizationUser) => user.role === 'organization_owner' || user.id === userId;

  return {
    role,
    canManage: manage,
    /** Roles offered when adding a user or changing a role. */
    roles,
    canEdit: (user: OrganizationUser) => manage && atOrBelow(user),
    /**
     * The product access panel: for people the caller may act on, as every fix it offers acts on the person
     * (an admin has nothing to do for the owner, whose row offers an admin no action).
     */
    canCheckAccess: (user: OrganizationUser) => manage && atOrBelow(user),
    canRemove: (user: OrganizationUser) => manage && atOrBelow(user) && !isOwnerOrSelf(user),
    /**
     * Turn off someone's two-factor sign-in (a lost phone): system admins only (decision 015); not for a person
     * whose invitation is pending (no account of theirs to reach yet).
     */
    canResetTwoFactor: (user: OrganizationUser) => role === 'system_admin' && user.status !== 'pending',
    /** Mail a pending invitation again (an owner's too, when the caller may act on it). */
    canResend: (user: OrganizationUser) => manage && user.status === 'pending' && atOrBelow(user),
    /**
     * Why the caller cannot remove all of these users, in the server's words where it has some (remove-service:
     * the owner stays; nobody above the caller), else undefined. Empty: undefined (the toolbar says to select).
     */
    removeBlocked: (users: readonly OrganizationUser[]): string | undefined => {
      const owner = users.find((u) => u.role === 'organization_owner');
      if (owner) return `${owner.name} is the owner. ${APP_MSG.ownerCannotBeRemoved}`;
      const above = users.find((u) => !atOrBelow(u));
      if (above) return `${above.name}: ${APP_MSG.strongerMember}`;
      if (users.some((u) => u.id === userId)) return 'You cannot remove yourself. Unselect your own row.';
      return undefined;
    },
    /** Why the caller cannot move all of these users onto another licence (someone above them), else undefined. */
    changeLicenceBlocked: (users: readonly OrganizationUser[]): string | undefined => {
      const above = users.find((u) => !atOrBelow(u));
      return above ? `${above.name}: ${APP_MSG.strongerMember}` : undefined;
    },
    canChangeRole: (user: OrganizationUser) =>
      assign && roles.length > 1 && atOrBelow(user) && !isOwnerOrSelf(user),
  };
}
