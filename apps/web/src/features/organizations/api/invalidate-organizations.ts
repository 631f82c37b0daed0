import { queryClient } from '../../../lib/query-client';

/**
 * After a create, update or delete: every cached view that shows organizations (header, breadcrumb,
 * picker cards, tables, user search with organization names) is refetched.
 */
export async function invalidateOrganizationQueries(): Promise<void> {
  await Promise.all(
    ['organization', 'organizations', 'sub-organizations', 'parent-organizations', 'users'].map((key) =>
      queryClient.invalidateQueries({ queryKey: [key] }),
    ),
  );
}
