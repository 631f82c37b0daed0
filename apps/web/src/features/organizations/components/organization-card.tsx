import { ORGANIZATION_TYPE_LABEL, type OrganizationSummary } from '@allot/domain/organizations';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600} fz="lg">
        {formatCount(value)}
      </Text>
    </Stack>
  );
}

export function OrganizationCard({ organization }: { organization: OrganizationSummary }) {
  const available = organization.credits.shared + organization.credits.protected;
  const headingId = `organization-${organization.id}`;
  return (
    <Card component="article" aria-labelledby={headingId} shadow="xs">
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Title order={2} fz="h4" id={headingId} lineClamp={2}>
            {organization.name}
          </Title>
          <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
            {ORGANIZATION_TYPE_LABEL[organization.type]}
          </Badge>
        </Group>
        <SimpleGrid cols={3} spacing="xs">
          <Stat label="Users" value={organization.usersCount} />
          <Stat label="Sub-orgs" value={organization.subOrganizationsCount} />
          <Stat label="Credits" value={available} />
        </SimpleGrid>
        <Button
          component={Link}
          to={`/${encodeURIComponent(organization.id)}`}
          variant="light"
          rightSection={<IconArrowRight size={16} aria-hidden="true" />}
          mt="auto"
          aria-label={`Manage ${organization.name}`}
        >
          Manage
        </Button>
      </Stack>
    </Card>
  );
}
