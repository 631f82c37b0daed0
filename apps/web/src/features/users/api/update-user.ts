import type { UpdateUserRequest } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from '../../organizations/api/invalidate-organizations';

/** POST /api/user/{id}/update: name, email and locale; 409 when the email is taken. */
export function updateUser({ id, ...input }: UpdateUserRequest & { id: string }): Promise<unknown> {
  return api.post<unknown>(`/user/${encodeURIComponent(id)}/update`, input);
}

export function useUpdateUser() {
  // The owner's name and email are also the organization's admin name and email.
  return useMutation({ mutationFn: updateUser, onSuccess: invalidateOrganizationQueries });
}
