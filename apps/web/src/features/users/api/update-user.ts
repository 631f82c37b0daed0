import type { UpdateUserRequest, UserAccount } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from '../../organizations/api/invalidate-organizations';

/**
 * POST /api/user/{id}/update: name and locale change at once; a new email waits for the code mailed to it
 * (`pendingEmail`, CONTRACT §3).
 */
export function updateUser({ id, ...input }: UpdateUserRequest & { id: string }): Promise<UserAccount> {
  return api.post<UserAccount>(`/user/${encodeURIComponent(id)}/update`, input);
}

export function useUpdateUser() {
  // The owner's name and email are also the organization's admin name and email.
  return useMutation({ mutationFn: updateUser, onSuccess: invalidateOrganizationQueries });
}
