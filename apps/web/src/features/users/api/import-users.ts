import type { BulkImportRequest, BulkImportResponse } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, organizationRef } from '../../../lib/query-client';
import { callerRoleViews, membershipViewsOf } from '../../../lib/query-keys';
import { getSession } from '../../../lib/session';

/**
 * POST /api/user/bulk: adds the file's users. 402 when the seats ran out part-way: the users added so far
 * stay added and come back in the error's details (same shape as the answer).
 */
export function importUsers(input: BulkImportRequest): Promise<BulkImportResponse> {
  return api.post<BulkImportResponse>('/user/bulk', input);
}

/** New members, as for one (create-user.ts); the caller's own address in the file joins at once. */
function afterImport(_answer: unknown, _error: unknown, input: BulkImportRequest): Promise<void> {
  const email = getSession().userEmail?.toLowerCase();
  const own = input.users.some((row) => row.email.trim().toLowerCase() === email);
  return invalidate([
    ...membershipViewsOf(organizationRef(input.organizationId)),
    ...(own ? callerRoleViews() : []),
  ]);
}

export function useImportUsers() {
  // After a 402 as well: some users were added.
  return useMutation({ mutationFn: importUsers, onSettled: afterImport });
}
