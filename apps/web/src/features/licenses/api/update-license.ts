import type { UpdateLicenseRequest } from '@allot/domain/licenses';
import type { License } from '@allot/domain/organizations';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UpdateLicenseInput extends UpdateLicenseRequest {
  license: Pick<License, 'id' | 'organizationId' | 'expireAt'>;
}

/** POST /api/license/{id}/update (system admins): seats (never below those in use: 422) and expiry. */
export function updateLicense({ license, ...input }: UpdateLicenseInput): Promise<License> {
  return api.post<License>(`/license/${encodeURIComponent(license.id)}/update`, {
    ...input,
    licenseId: license.id,
  });
}

/**
 * New seats show in the organization's detail; a new expiry reaches every licence handed down from this one,
 * at any depth, and the client does not know which cached organizations are below: every detail.
 */
function afterUpdate(saved: License, { license }: UpdateLicenseInput): Promise<void> {
  const expiryChanged = new Date(saved.expireAt).getTime() !== new Date(license.expireAt).getTime();
  return invalidate([
    expiryChanged ? queryKeys.organizations.details() : queryKeys.organizations.detail(saved.organizationId),
  ]);
}

export function useUpdateLicense() {
  return useMutation({ mutationFn: updateLicense, onSuccess: afterUpdate });
}
