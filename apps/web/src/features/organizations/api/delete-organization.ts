import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { invalidateOrganizationQueries } from './invalidate-organizations';

/** DELETE /api/organization/{id}/delete: 409 while it has sub-organizations (delete_org). */
export function deleteOrganization(id: string): Promise<{ success: boolean }> {
  return api.delete<{ success: boolean }>(`/organization/${encodeURIComponent(id)}/delete`);
}

export function useDeleteOrganization() {
  return useMutation({
    mutationFn: deleteOrganization,
    onSuccess: async (_answer, id) => {
      queryClient.removeQueries({ queryKey: ['organization', id] });
      queryClient.removeQueries({ queryKey: ['parent-organizations', id] });
      await invalidateOrganizationQueries();
    },
  });
}
