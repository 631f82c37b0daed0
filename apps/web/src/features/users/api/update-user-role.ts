import type { RoleChange, UpdateUserRoleRequest } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, organizationRef } from '../../../lib/query-client';
import { callerRoleViews, membershipViewsOf } from '../../../lib/query-keys';
import { getSession } from '../../../lib/session';

/**
 * POST /api/user/{id}/update/role: the role in one organization. Making someone owner also turns the
 * current owner into an admin: both changes come back.
 */
export function updateUserRole({
  userId,
  ...input
}: UpdateUserRoleRequest & { userId: string }): Promise<RoleChange[]> {
  return api.post<RoleChange[]>(`/user/${encodeURIComponent(userId)}/update/role`, input);
}

/**
 * A new role: the organization's members and summary (its owner is its admin name and email), the user
 * search (roles by organization). The caller among the changes (an owner who handed over): the caller's role.
 */
function afterRoleChange(changes: RoleChange[], input: UpdateUserRoleRequest): Promise<void> {
  const self = changes.some((change) => change.userId === getSession().userId);
  return invalidate([
    ...membershipViewsOf(organizationRef(input.organizationId)),
    ...(self ? callerRoleViews() : []),
  ]);
}

export function useUpdateUserRole() {
  return useMutation({ mutationFn: updateUserRole, onSuccess: afterRoleChange });
}
