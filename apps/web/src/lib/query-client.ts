import type { Organization } from '@allot/domain/organizations';
import { partialMatchKey, QueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from './api-error';
import { type OrganizationRef, queryKeys } from './query-keys';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Client errors (4xx) will not get better by retrying; network and 5xx get one more try.
      retry: (failureCount, error) => {
        if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
        return failureCount < 1;
      },
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

const underAny = (keys: readonly QueryKey[]) => (queryKey: QueryKey) =>
  keys.some((key) => partialMatchKey(queryKey, key));

/**
 * After a change: every cached query under one of these keys (`query-keys.ts`) is stale, and those on screen
 * are fetched again; resolves when they are, so that a dialog closes on fresh figures. One pass over the
 * cache, so a query under two of the keys is fetched once.
 */
export async function invalidate(keys: readonly QueryKey[]): Promise<void> {
  const matches = underAny(keys);
  await queryClient.invalidateQueries({ predicate: (query) => matches(query.queryKey) });
}

/** Drops what the cache holds under these keys (what a deletion made meaningless), without fetching it. */
export function forget(keys: readonly QueryKey[]): void {
  const matches = underAny(keys);
  queryClient.removeQueries({ predicate: (query) => matches(query.queryKey) });
}

/**
 * An organization with its parent as its cached detail says (null: a root; undefined: its detail is not
 * cached). The organization of a dashboard screen always is: the route loader fetched it.
 */
export function organizationRef(id: string): OrganizationRef {
  const cached = queryClient.getQueryData<Organization>(queryKeys.organizations.detail(id));
  return { id, parentOrganizationId: cached?.parentOrganizationId };
}
