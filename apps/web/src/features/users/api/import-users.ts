import type { BulkImportRequest, BulkImportResponse } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from '../../organizations/api/invalidate-organizations';

/**
 * POST /api/user/bulk: adds the file's users. 402 when the seats ran out part-way: the users added so far
 * stay added and come back in the error's details (same shape as the answer).
 */
export function importUsers(input: BulkImportRequest): Promise<BulkImportResponse> {
  return api.post<BulkImportResponse>('/user/bulk', input);
}

export function useImportUsers() {
  // Invalidate after a 402 as well: some users were added.
  return useMutation({ mutationFn: importUsers, onSettled: invalidateOrganizationQueries });
}
