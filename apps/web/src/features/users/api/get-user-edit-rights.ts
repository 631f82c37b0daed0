import type { UserEditRights } from '@allot/domain/users';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/user/{id}/edit-rights: whether the caller may change the account's name and email, and why not. */
export function getUserEditRights(userId: string): Promise<UserEditRights> {
  return api.get<UserEditRights>(`/user/${encodeURIComponent(userId)}/edit-rights`);
}

export function useUserEditRights(userId: string) {
  return useQuery({
    queryKey: queryKeys.users.editRights(userId),
    queryFn: () => getUserEditRights(userId),
    // Asked each time the dialog opens: memberships elsewhere may have changed since.
    staleTime: 0,
  });
}
