import type { License } from '@allot/domain/organizations';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

type DeletedLicense = Pick<License, 'id' | 'organizationId'>;

/** DELETE /api/license/{id}/delete (system admins): 409 while a seat is in use or handed down. */
export function deleteLicense(license: DeletedLicense): Promise<{ success: boolean }> {
  return api.delete<{ success: boolean }>(`/license/${encodeURIComponent(license.id)}/delete`);
}

/** Its organization's detail (licences, seats); no seat was in use, so no member changed. */
function afterDelete(_answer: unknown, license: DeletedLicense): Promise<void> {
  return invalidate([queryKeys.organizations.detail(license.organizationId)]);
}

export function useDeleteLicense() {
  return useMutation({ mutationFn: deleteLicense, onSuccess: afterDelete });
}
