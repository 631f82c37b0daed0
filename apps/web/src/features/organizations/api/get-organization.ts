import type { Organization } from '@allot/domain/organizations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/organization/{id} with every part the dashboard needs. */
export function getOrganization(id: string): Promise<Organization> {
  return api.get<Organization>(`/organization/${encodeURIComponent(id)}`, {
    query: { licenses: true, subOrganizations: true, credits: true, permissionsAndRole: true },
  });
}

export const organizationQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.organizations.detail(id), queryFn: () => getOrganization(id) });

export function useOrganization(id: string) {
  return useQuery(organizationQueryOptions(id));
}
