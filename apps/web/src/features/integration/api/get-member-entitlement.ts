import type { Entitlement } from '@allot/domain/integration';
import type { LicenseType } from '@allot/domain/organizations';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface MemberEntitlementQuery {
  organizationId: string;
  userId: string;
  licenseType: LicenseType;
}

/**
 * GET /api/organization/{id}/users/{userId}/entitlement?licenseType=: the classroom product's entitlement
 * check for one member (or invited person) of the organization, with the reasons in the order a person fixes
 * them. Needs manage_users there.
 */
export function getMemberEntitlement(
  { organizationId, userId, licenseType }: MemberEntitlementQuery,
  signal?: AbortSignal,
): Promise<Entitlement> {
  return api.get<Entitlement>(
    `/organization/${encodeURIComponent(organizationId)}/users/${encodeURIComponent(userId)}/entitlement`,
    { query: { licenseType }, signal },
  );
}

export function useMemberEntitlement(query: MemberEntitlementQuery) {
  return useQuery({
    queryKey: queryKeys.users.entitlement(query.organizationId, query.userId, query.licenseType),
    queryFn: ({ signal }) => getMemberEntitlement(query, signal),
    // Asked each time the panel opens or comes back after a fix: seats, balances and licences move.
    staleTime: 0,
  });
}
