import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface ParentOrganization {
  id: string;
  name: string;
}

/** GET /api/organization/{id}/parent-organizations: the ancestors from the root down to the parent. */
export function getParentOrganizations(id: string): Promise<ParentOrganization[]> {
  return api.get<ParentOrganization[]>(`/organization/${encodeURIComponent(id)}/parent-organizations`);
}

export const parentOrganizationsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.organizations.parentsOf(id),
    queryFn: () => getParentOrganizations(id),
  });

export function useParentOrganizations(id: string) {
  return useQuery(parentOrganizationsQueryOptions(id));
}
