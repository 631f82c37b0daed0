import type { CreateUserRequest, OrganizationUser } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, organizationRef } from '../../../lib/query-client';
import { callerRoleViews, membershipViewsOf } from '../../../lib/query-keys';
import { getSession } from '../../../lib/session';

/** POST /api/user/create: adds (and invites) a user; 409 email taken, 402 no free seat. */
export function createUser(input: CreateUserRequest): Promise<OrganizationUser> {
  return api.post<OrganizationUser>('/user/create', input);
}

/**
 * A new member: the organization's members, seats and summary, the user search, its credit log (the caller's
 * own account joins at once, with its moves). A new owner takes over from the old one, who may be the caller,
 * and the caller's own account joining gets a role: then the caller's role too.
 */
function afterCreate(_created: OrganizationUser, input: CreateUserRequest): Promise<void> {
  const own = input.email.trim().toLowerCase() === getSession().userEmail?.toLowerCase();
  return invalidate([
    ...membershipViewsOf(organizationRef(input.organizationId)),
    ...(own || input.role === 'organization_owner' ? callerRoleViews() : []),
  ]);
}

export function useCreateUser() {
  return useMutation({ mutationFn: createUser, onSuccess: afterCreate });
}
