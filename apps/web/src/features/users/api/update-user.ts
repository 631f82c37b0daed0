import type { UpdateUserRequest, UserAccount } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * POST /api/user/{id}/update: name and locale change at once; a new email waits for the code mailed to it
 * (`pendingEmail`, CONTRACT §3).
 */
export function updateUser({ id, ...input }: UpdateUserRequest & { id: string }): Promise<UserAccount> {
  return api.post<UserAccount>(`/user/${encodeURIComponent(id)}/update`, input);
}

/**
 * A person's name and email show wherever the person does, and the client does not know where that is: the
 * members lists of every organization they belong to, the user search, the admin name and email of every
 * organization they own (details and every list of summaries), and the credit logs ("By"). All of those;
 * only the breadcrumbs are left alone.
 */
function afterUpdate(): Promise<void> {
  return invalidate([
    queryKeys.users.all(),
    queryKeys.organizations.details(),
    queryKeys.organizations.mine(),
    queryKeys.organizations.searches(),
    queryKeys.organizations.subOrganizations(),
    queryKeys.creditLog.all(),
  ]);
}

export function useUpdateUser() {
  return useMutation({ mutationFn: updateUser, onSuccess: afterUpdate });
}
