import type { CreateOrganizationRequest, Organization } from '@allot/domain/organizations';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateOrganizationQueries } from './invalidate-organizations';

/** POST /api/organization/create: a root (system admin) or a child of parentOrganizationId. */
export function createOrganization(input: CreateOrganizationRequest): Promise<Organization> {
  return api.post<Organization>('/organization/create', {
    ...input,
    parentOrganizationId: input.parentOrganizationId || null,
    adminName: input.adminName || undefined,
    adminEmail: input.adminEmail || undefined,
  });
}

export function useCreateOrganization() {
  return useMutation({ mutationFn: createOrganization, onSuccess: invalidateOrganizationQueries });
}
