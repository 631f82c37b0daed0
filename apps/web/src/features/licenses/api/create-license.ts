import type { CreateLicenseRequest } from '@allot/domain/licenses';
import type { License } from '@allot/domain/organizations';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/license/create (system admins): one licence per type per organization (409 for a second). */
export function createLicense(input: CreateLicenseRequest): Promise<License> {
  return api.post<License>('/license/create', input);
}

/** A new licence shows in its organization's detail (the licences and the seats of the users screen). */
function afterCreate(license: License): Promise<void> {
  return invalidate([queryKeys.organizations.detail(license.organizationId)]);
}

export function useCreateLicense() {
  return useMutation({ mutationFn: createLicense, onSuccess: afterCreate });
}
