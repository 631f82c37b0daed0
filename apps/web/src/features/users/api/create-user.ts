import type { CreateUserRequest, OrganizationUser } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from '../../organizations/api/invalidate-organizations';

/** POST /api/user/create: adds (and invites) a user; 409 email taken, 402 no free seat. */
export function createUser(input: CreateUserRequest): Promise<OrganizationUser> {
  return api.post<OrganizationUser>('/user/create', input);
}

export function useCreateUser() {
  // Lists, the licence seat counts and the users counts of organizations all change.
  return useMutation({ mutationFn: createUser, onSuccess: invalidateOrganizationQueries });
}
