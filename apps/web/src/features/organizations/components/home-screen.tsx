import {
  Alert,
  Button,
  Card,
  Container,
  EmptyState,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAlertCircle, IconBuildingCommunity } from '@tabler/icons-react';
import { Navigate } from 'react-router';
import { useOrganizations } from '../api/get-organizations';
import { OrganizationCard } from './organization-card';

const GRID_COLS = { base: 1, sm: 2, md: 3 };

function LoadingGrid() {
  return (
    <SimpleGrid cols={GRID_COLS} spacing="lg" aria-busy="true" aria-label="Loading organizations">
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

/** The organization picker (spec §2 Home). Search, paging and adding arrive in a coming release. */
export function HomeScreen() {
  useDocumentTitle('Organizations · Allot');
  const { data, isPending, isError, error, refetch, isRefetching } = useOrganizations();

  if (data?.length === 1 && data[0]) return <Navigate to={`/${encodeURIComponent(data[0].id)}`} replace />;

  return (
    <Container size="lg" w="100%" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Organizations
          </Title>
          <Text c="dimmed" size="sm">
            Choose an organization to manage its licences, users and credits.
          </Text>
        </Stack>
        {isPending && <LoadingGrid />}
        {isError && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle aria-hidden="true" />}
            title="Organizations could not be loaded"
          >
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{error.message}</Text>
              <Button
                size="xs"
                variant="white"
                color="red"
                loading={isRefetching}
                onClick={() => void refetch()}
              >
                Retry
              </Button>
            </Stack>
          </Alert>
        )}
        {data && data.length === 0 && (
          <Card py="xl">
            <EmptyState
              icon={<IconBuildingCommunity />}
              title="No organizations yet"
              description="You do not hold a role in any organization. Ask the owner of your organization to add you as an admin."
              variant="light"
            />
          </Card>
        )}
        {data && data.length > 1 && (
          <SimpleGrid cols={GRID_COLS} spacing="lg">
            {data.map((organization) => (
              <OrganizationCard key={organization.id} organization={organization} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Container>
  );
}
