import type { OrganizationSummary } from '@allot/domain/organizations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * GET /api/organization: the organizations where the caller holds a role directly
 * (system admin: the root organizations). The spec allows an array or a single organization.
 */
export async function getOrganizations(): Promise<OrganizationSummary[]> {
  const result = await api.get<OrganizationSummary[] | OrganizationSummary | null>('/organization');
  if (!result) return [];
  return Array.isArray(result) ? result : [result];
}

export const organizationsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.organizations.mine(), queryFn: getOrganizations });

export function useOrganizations() {
  return useQuery(organizationsQueryOptions());
}
