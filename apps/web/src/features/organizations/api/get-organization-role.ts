import type { Organization } from '@allot/domain/organizations';
import type { Role } from '@allot/domain/roles';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The caller's effective role in one organization (GET /api/organization/{id}?permissionsAndRole=true, nothing
 * else): what a form needs to know before offering a choice that depends on it. Under the organization's
 * detail key, so whatever refreshes the detail refreshes this too.
 */
export function useRoleIn(id: string | null | undefined) {
  return useQuery({
    queryKey: queryKeys.organizations.roleIn(id ?? ''),
    queryFn: async (): Promise<Role | null> => {
      const organization = await api.get<Organization>(`/organization/${encodeURIComponent(id ?? '')}`, {
        query: { permissionsAndRole: true },
      });
      return organization.permissionsAndRole?.role.name ?? null;
    },
    enabled: Boolean(id),
    staleTime: 60_000,
  });
}
