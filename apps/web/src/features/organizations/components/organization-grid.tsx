import type { OrganizationRef, OrganizationSummary } from '@allot/domain/organizations';
import { Card, SimpleGrid, Skeleton } from '@mantine/core';
import { OrganizationCard } from './organization-card';

const GRID_COLS = { base: 1, sm: 2, md: 3 };

/**
 * Organizations as cards. `withPath` (search results): each card says where its organization sits
 * ("Riverside District › Northside Elementary"), so that two of one name can be told apart.
 */
export function OrganizationGrid({
  organizations,
  withPath = false,
}: {
  organizations: (OrganizationSummary & { path?: OrganizationRef[] })[];
  withPath?: boolean;
}) {
  return (
    <SimpleGrid cols={GRID_COLS} spacing="lg">
      {organizations.map((organization) => (
        <OrganizationCard
          key={organization.id}
          organization={organization}
          path={withPath ? (organization.path ?? []) : undefined}
        />
      ))}
    </SimpleGrid>
  );
}

export function OrganizationGridSkeleton({ label = 'Loading organizations' }: { label?: string }) {
  return (
    <SimpleGrid cols={GRID_COLS} spacing="lg" aria-busy="true" aria-label={label}>
      {['a', 'b', 'c'].map((key) => (
        <Card key={key}>
          <Skeleton h={22} w="70%" mb="md" />
          <Skeleton h={40} mb="md" />
          <Skeleton h={36} />
        </Card>
      ))}
    </SimpleGrid>
  );
}
