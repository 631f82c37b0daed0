import type { Organization, UpdateOrganizationRequest } from '@allot/domain/organizations';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from './invalidate-organizations';

/** POST /api/organization/{id}/update: name, type and phone number (update_org). */
export function updateOrganization({
  id,
  ...input
}: UpdateOrganizationRequest & { id: string }): Promise<Organization> {
  return api.post<Organization>(`/organization/${encodeURIComponent(id)}/update`, input);
}

export function useUpdateOrganization() {
  return useMutation({ mutationFn: updateOrganization, onSuccess: invalidateOrganizationQueries });
}
