import type { RoleChange, UpdateUserRoleRequest } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from '../../organizations/api/invalidate-organizations';

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

export function useUpdateUserRole() {
  // The organization's owner (admin name, email) and the caller's own permissions may change too.
  return useMutation({ mutationFn: updateUserRole, onSuccess: invalidateOrganizationQueries });
}
