import type { Organization } from '@allot/domain/organizations';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { organizationQueryOptions } from './get-organization';

/** The organization of the URL; the route loader has loaded it before any dashboard screen renders. */
export function useCurrentOrganization(): Organization {
  const { organization: id = '' } = useParams();
  return useSuspenseQuery(organizationQueryOptions(id)).data;
}
