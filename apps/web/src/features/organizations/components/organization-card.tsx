import {
  LICENSE_TYPE_LABEL,
  ORGANIZATION_TYPE_LABEL,
  type OrganizationRef,
  type OrganizationSummary,
} from '@allot/domain/organizations';
import {
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowRight, IconClockExclamation } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';
import { OrganizationPath } from './organization-path';

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

const expiryDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/**
 * A licence of the organization expires within 30 days (the server's `licenseExpiringSoon`): the type and
 * date on hover, and to screen readers as part of the badge (it is no tab stop: the licences screen has it).
 */
function ExpiringSoonBadge({
  licence,
}: {
  licence: NonNullable<OrganizationSummary['licenseExpiringSoon']>;
}) {
  const detail = `${LICENSE_TYPE_LABEL[licence.licenseType]} licence expires on ${expiryDate.format(new Date(licence.expireAt))}`;
  return (
    <Tooltip label={detail} events={{ hover: true, focus: false, touch: true }}>
      <Badge
        variant="light"
        color="orange"
        leftSection={<IconClockExclamation size={14} aria-hidden="true" />}
        style={{ alignSelf: 'flex-start' }}
      >
        Licence expires soon<VisuallyHidden>: {detail}</VisuallyHidden>
      </Badge>
    </Tooltip>
  );
}

/** `path`: the organization's visible ancestors, shown under its name (search results). */
export function OrganizationCard({
  organization,
  path,
}: {
  organization: OrganizationSummary;
  path?: OrganizationRef[];
}) {
  const available = organization.credits.shared + organization.credits.protected;
  const headingId = `organization-${organization.id}`;
  return (
    <Card component="article" aria-labelledby={headingId} shadow="xs">
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Stack gap={4} miw={0}>
            <Title order={2} fz="h4" id={headingId} lineClamp={2}>
              {organization.name}
            </Title>
            {path && <OrganizationPath path={path} name={organization.name} />}
          </Stack>
          <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
            {ORGANIZATION_TYPE_LABEL[organization.type]}
          </Badge>
        </Group>
        {organization.licenseExpiringSoon && <ExpiringSoonBadge licence={organization.licenseExpiringSoon} />}
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
