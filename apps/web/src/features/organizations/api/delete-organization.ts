import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { forget, invalidate, organizationRef } from '../../../lib/query-client';
import { queryKeys, summaryViewsOf } from '../../../lib/query-keys';

/** The organization to delete, and its parent (whose pools, licences and lists the deletion changes). */
export interface DeletedOrganization {
  id: string;
  parentOrganizationId: string | null;
}

/** DELETE /api/organization/{id}/delete: 409 while it has sub-organizations (delete_org). */
export function deleteOrganization({ id }: DeletedOrganization): Promise<{ success: boolean }> {
  return api.delete<{ success: boolean }>(`/organization/${encodeURIComponent(id)}/delete`);
}

/**
 * What a deletion changes. Its own queries mean nothing any more: dropped. It leaves the lists that showed it
 * (its parent's sub-organizations and detail, the picker, the searches) and the user search (its members'
 * organizations). Its credits, licence seats and place go to its parent: the parent's summary wherever that
 * is shown, and the parent's credit log (the credits that came back).
 */
function afterDelete(_answer: unknown, deleted: DeletedOrganization): Promise<void> {
  const { id } = deleted;
  const parent = deleted.parentOrganizationId;
  forget([
    queryKeys.organizations.detail(id),
    queryKeys.organizations.parentsOf(id),
    queryKeys.organizations.subOrganizationsOf(id),
    queryKeys.users.membersOf(id),
    queryKeys.creditLog.of(id),
  ]);
  return invalidate([
    ...summaryViewsOf(deleted),
    ...(parent ? [...summaryViewsOf(organizationRef(parent)), queryKeys.creditLog.of(parent)] : []),
    queryKeys.users.searches(),
  ]);
}

/**
 * `leave` runs first when the screen shows the deleted organization itself (general information): it
 * navigates away, and only then are the organization's own queries dropped, so nothing shown asks for it
 * again (a 404).
 */
export function useDeleteOrganization(options?: { leave?: (deleted: DeletedOrganization) => Promise<void> }) {
  const leave = options?.leave;
  return useMutation({
    mutationFn: deleteOrganization,
    onSuccess: async (answer: unknown, deleted: DeletedOrganization) => {
      if (leave) await leave(deleted);
      await afterDelete(answer, deleted);
    },
  });
}
