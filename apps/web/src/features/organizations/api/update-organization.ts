import type { Organization, UpdateOrganizationRequest } from '@allot/domain/organizations';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys, summaryViewsOf } from '../../../lib/query-keys';

/** POST /api/organization/{id}/update: name, type and phone number (update_org). */
export function updateOrganization({
  id,
  ...input
}: UpdateOrganizationRequest & { id: string }): Promise<Organization> {
  return api.post<Organization>(`/organization/${encodeURIComponent(id)}/update`, input);
}

/**
 * What new details change: the organization's summary wherever it is shown (its detail, its parent's detail
 * and sub-organizations, the picker, the searches), the breadcrumbs below it (every descendant names it) and
 * the user search (each person's organizations by name).
 */
function afterUpdate(saved: Organization): Promise<void> {
  return invalidate([
    ...summaryViewsOf(saved),
    queryKeys.organizations.parents(),
    queryKeys.users.searches(),
  ]);
}

export function useUpdateOrganization() {
  return useMutation({ mutationFn: updateOrganization, onSuccess: afterUpdate });
}
