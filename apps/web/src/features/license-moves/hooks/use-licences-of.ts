import type { License } from '@allot/domain/organizations';
import { useQueries } from '@tanstack/react-query';
import { organizationQueryOptions } from '../../organizations/api/get-organization';

/** Beyond this many selected organizations the dialog does not read each one's seats: the server checks. */
export const MOST_CHECKED = 20;

export type LicencesOf =
  | { state: 'unchecked' }
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'loaded'; licences: Map<string, License[]> };

/**
 * The licences (seats held and in use) of the selected organizations, from their details (GET
 * /organization/{id}, cached under the same key as every other read of them): the sub-organizations rows do
 * not carry licences. At most MOST_CHECKED of them.
 */
export function useLicencesOf(ids: readonly string[]): LicencesOf {
  const checked = ids.length <= MOST_CHECKED;
  return useQueries({
    queries: (checked ? ids : []).map((id) => organizationQueryOptions(id)),
    combine: (results): LicencesOf => {
      if (!checked) return { state: 'unchecked' };
      if (results.some((r) => r.isError && !r.data)) return { state: 'failed' };
      if (results.some((r) => !r.data)) return { state: 'loading' };
      return {
        state: 'loaded',
        licences: new Map(results.map((r, i) => [ids[i] as string, r.data?.licenses ?? []])),
      };
    },
  });
}
