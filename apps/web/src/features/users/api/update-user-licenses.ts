import type { UpdateUserLicensesRequest } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/user/update/licenses: moves users onto one licence; 422 when its seats do not suffice. */
export function updateUserLicenses(input: UpdateUserLicensesRequest): Promise<unknown> {
  return api.post<unknown>('/user/update/licenses', input);
}

/** Another licence: the members' licence column and the organization's seat counts (its detail), nothing else. */
function afterLicenceChange(_answer: unknown, input: UpdateUserLicensesRequest): Promise<void> {
  return invalidate([
    queryKeys.users.membersOf(input.organizationId),
    queryKeys.organizations.detail(input.organizationId),
  ]);
}

export function useUpdateUserLicenses() {
  return useMutation({ mutationFn: updateUserLicenses, onSuccess: afterLicenceChange });
}
