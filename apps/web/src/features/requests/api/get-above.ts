import type { LicenseType } from '@allot/domain/organizations';
import type { Role } from '@allot/domain/roles';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/organization/{id}/above (CONTRACT §11, as the server answers it). */
export interface Above {
  /** The organization directly above; null for a top-level organization. */
  parent: { id: string; name: string } | null;
  /** The owners and admins of the organization above (and above it), whom a request reaches. */
  managers: { name: string; email: string; role: Role }[];
  /** Per licence type: whether the organization above holds a free seat of it. */
  freeSeats: Partial<Record<LicenseType, boolean>>;
  /** Open requests of the organizations directly below, waiting for this organization's answer. */
  openRequests: number;
}

export function getAbove(organizationId: string, signal?: AbortSignal): Promise<Above> {
  return api.get<Above>(`/organization/${encodeURIComponent(organizationId)}/above`, { signal });
}

export const aboveQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: queryKeys.requests.above(organizationId),
    queryFn: ({ signal }) => getAbove(organizationId, signal),
  });

/** `enabled`: the caller manages the organization (the menu's count, the ask button, the seats offer). */
export function useAbove(organizationId: string, enabled = true) {
  return useQuery({ ...aboveQueryOptions(organizationId), enabled });
}
