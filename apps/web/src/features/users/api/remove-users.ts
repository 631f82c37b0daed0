import type { RemoveUsersRequest, removeUsersResponseSchema } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from '../../organizations/api/invalidate-organizations';

export type RemoveUsersResponse = z.infer<typeof removeUsersResponseSchema>;

/** POST /api/user/remove: ends the memberships; their credits go back to the shared pool, seats are freed. */
export function removeUsers(input: RemoveUsersRequest): Promise<RemoveUsersResponse> {
  return api.post<RemoveUsersResponse>('/user/remove', input);
}

export function useRemoveUsers() {
  return useMutation({ mutationFn: removeUsers, onSuccess: invalidateOrganizationQueries });
}
