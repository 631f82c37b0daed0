import type { CreateOrganizationRequest, Organization } from '@allot/domain/organizations';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate, organizationRef } from '../../../lib/query-client';
import { queryKeys, summaryViewsOf } from '../../../lib/query-keys';

/** POST /api/organization/create: a root (system admin) or a child of parentOrganizationId. */
export function createOrganization(input: CreateOrganizationRequest): Promise<Organization> {
  return api.post<Organization>('/organization/create', {
    ...input,
    parentOrganizationId: input.parentOrganizationId || null,
    adminName: input.adminName || undefined,
    adminEmail: input.adminEmail || undefined,
  });
}

/**
 * What a new organization changes: the lists it joins (its parent's sub-organizations and detail, the picker,
 * the searches); its parent's summary wherever that is listed (one more sub-organization); the user search
 * (its owner, maybe a new account, now belongs to it).
 */
function afterCreate(created: Organization): Promise<void> {
  const parent = created.parentOrganizationId;
  return invalidate([
    ...summaryViewsOf(created),
    ...(parent ? summaryViewsOf(organizationRef(parent)) : []),
    queryKeys.users.searches(),
  ]);
}

export function useCreateOrganization() {
  return useMutation({ mutationFn: createOrganization, onSuccess: afterCreate });
}
