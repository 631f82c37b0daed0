import type { Organization } from '@allot/domain/organizations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/organization/{id} with every part the dashboard needs. */
export function getOrganization(id: string): Promise<Organization> {
  return api.get<Organization>(`/organization/${encodeURIComponent(id)}`, {
    query: { licenses: true, subOrganizations: true, credits: true, permissionsAndRole: true },
  });
}

export const organizationQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['organization', id], queryFn: () => getOrganization(id) });

export function useOrganization(id: string) {
  return useQuery(organizationQueryOptions(id));
}
