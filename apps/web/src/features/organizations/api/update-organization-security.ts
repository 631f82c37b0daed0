import type { OrganizationSecurity, UpdateOrganizationSecurityRequest } from '@allot/domain/organizations';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UpdateOrganizationSecurityInput extends UpdateOrganizationSecurityRequest {
  organizationId: string;
}

/**
 * POST /api/organization/{id}/security: require two-factor of its owners and admins and everything below, or
 * stop; either way confirmed with a `code` of the caller's own two-factor (CONTRACT §3).
 */
export function updateOrganizationSecurity({
  organizationId,
  ...body
}: UpdateOrganizationSecurityInput): Promise<OrganizationSecurity> {
  return api.post<OrganizationSecurity>(`/organization/${encodeURIComponent(organizationId)}/security`, body);
}

/**
 * What the requirement changes: the detail of the organization and of every one below it (they show where it
 * comes from), the audit log that records it, and whether the caller's own two-factor is required.
 */
function afterUpdate(_saved: OrganizationSecurity, input: UpdateOrganizationSecurityInput): Promise<void> {
  return invalidate([
    queryKeys.organizations.details(),
    queryKeys.auditLog.of(input.organizationId),
    queryKeys.account.twoFactor(),
  ]);
}

export function useUpdateOrganizationSecurity() {
  return useMutation({ mutationFn: updateOrganizationSecurity, onSuccess: afterUpdate });
}
