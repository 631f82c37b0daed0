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
    canRemove: (user: OrganizationUser) => manage && atOrBelow(user) && !isOwnerOrSelf(user),
    canChangeRole: (user: OrganizationUser) =>
      assign && roles.length > 1 && atOrBelow(user) && !isOwnerOrSelf(user),
  };
}
