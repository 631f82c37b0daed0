import type { RemoveUsersRequest, removeUsersResponseSchema } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { invalidate, organizationRef } from '../../../lib/query-client';
import { callerRoleViews, membershipViewsOf, queryKeys } from '../../../lib/query-keys';
import { getSession } from '../../../lib/session';

export type RemoveUsersResponse = z.infer<typeof removeUsersResponseSchema>;

/** POST /api/user/remove: ends the memberships; their credits go back to the shared pool, seats are freed. */
export function removeUsers(input: RemoveUsersRequest): Promise<RemoveUsersResponse> {
  return api.post<RemoveUsersResponse>('/user/remove', input);
}

/**
 * Members gone: the organization's members, seats, summary (members count, and the shared pool that took
 * their credits) and credit log, the user search. Credits taken back emptied these people's balances, which
 * show in the members lists and credit logs of every organization they still belong to: all of those. The
 * caller removed from it: the caller's role.
 */
function afterRemove(answer: RemoveUsersResponse, input: RemoveUsersRequest): Promise<void> {
  const self = answer.removed.includes(getSession().userId ?? '');
  return invalidate([
    ...membershipViewsOf(organizationRef(input.organizationId)),
    ...(answer.creditsReturned > 0 ? [queryKeys.users.members(), queryKeys.creditLog.all()] : []),
    ...(self ? callerRoleViews() : []),
  ]);
}

export function useRemoveUsers() {
  return useMutation({ mutationFn: removeUsers, onSuccess: afterRemove });
}
