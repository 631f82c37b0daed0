import type { UpdateUserLicensesRequest } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from '../../organizations/api/invalidate-organizations';

/** POST /api/user/update/licenses: moves users onto one licence; 422 when its seats do not suffice. */
export function updateUserLicenses(input: UpdateUserLicensesRequest): Promise<unknown> {
  return api.post<unknown>('/user/update/licenses', input);
}

export function useUpdateUserLicenses() {
  return useMutation({ mutationFn: updateUserLicenses, onSuccess: invalidateOrganizationQueries });
}
