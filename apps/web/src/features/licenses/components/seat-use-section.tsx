import '@mantine/charts/styles.css';
import { IDLE_SEAT_DAYS, type LicenseUsage } from '@allot/domain/insights';
import { LICENSE_TYPE_LABEL, type LicenseType } from '@allot/domain/organizations';
import { Sparkline } from '@mantine/charts';
import {
  Anchor,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { formatCount, formatCountOf, formatMediumDay } from '../../../lib/format';
import { personPath } from '../../../lib/person-path';
import { useLicenseUsage } from '../../insights/api/get-license-usage';

const DAYS = 90;
type LicenceUse = LicenseUsage['licenses'][number];

const labelOf = (type: string) => LICENSE_TYPE_LABEL[type as LicenseType] ?? type;

function percent(used: number, max: number) {
  return max > 0 ? Math.round((used / max) * 100) : 0;
}

function IdleList({ use, organizationId }: { use: LicenceUse; organizationId: string }) {
  const { idle } = use;
  // Nobody holds a seat today: "every seat holder used the product" would praise an empty licence.
  if (idle.count === 0 && (use.days.at(-1)?.used ?? 0) === 0) {
    return (
      <Text size="sm" c="dimmed">
        No seat of this licence is held yet.
      </Text>
    );
  }
  if (idle.count === 0) {
    return (
      <Text size="sm" c="dimmed">
        Every seat holder used the product in the last {IDLE_SEAT_DAYS} days.
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {formatCountOf(idle.count, 'seat is', 'seats are')} held by people who have not used the product for{' '}
        {IDLE_SEAT_DAYS} days
      </Text>
      <Table.ScrollContainer minWidth={460} mah={240}>
        <Table
          verticalSpacing={4}
          fz="sm"
          stickyHeader
          aria-label={`Idle seats of ${labelOf(use.licenseType)}`}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {idle.users.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>{user.name}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{user.email}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {user.lastUsedOn ? formatMediumDay(user.lastUsedOn) : 'Never'}
                </Table.Td>
                <Table.Td ta="right">
                  <Anchor
                    component={Link}
                    to={personPath(organizationId, user.email)}
                    size="sm"
                    aria-label={`Manage ${user.name} in Users`}
                    style={{ whiteSpace: 'nowrap' }}
                  >
                    Manage in Users
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {idle.count > idle.users.length && (
        <Text size="xs" c="dimmed">
          The {formatCount(idle.users.length)} idle the longest are listed.
        </Text>
      )}
    </Stack>
  );
}

function LicenceUseCard({ use, organizationId }: { use: LicenceUse; organizationId: string }) {
  const today = use.days.at(-1);
  const peak = use.days.reduce((best, d) => (d.used > (best?.used ?? -1) ? d : best), use.days[0]);
  const used = today?.used ?? 0;
  const max = today?.maxUsers ?? 0;
  const label = labelOf(use.licenseType);
  return (
    <Card withBorder component="section" aria-label={`Seat use of ${label}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={0}>
            <Title order={3} fz="h5">
              {label}
            </Title>
            <Text size="sm">
              <b>{formatCount(used)}</b> of {formatCountOf(max, 'seat', 'seats')} used today (
              {percent(used, max)} %)
            </Text>
            {use.days.length > 1 && peak && peak.used > 0 ? (
              <Text size="xs" c="dimmed">
                Most in the last {DAYS} days: {formatCount(peak.used)} on {formatMediumDay(peak.date)}
              </Text>
            ) : use.days.length === 1 && use.days[0] ? (
              <Text size="xs" c="dimmed">
                The daily history starts on {formatMediumDay(use.days[0].date)}.
              </Text>
            ) : null}
          </Stack>
          {use.days.length > 1 && (
            <Sparkline
              w={180}
              h={48}
              data={use.days.map((d) => d.used)}
              curveType="linear"
              color="blue.6"
              fillOpacity={0.25}
              strokeWidth={1.5}
              role="img"
              aria-label={`Seats used per day of ${label}, last ${DAYS} days: from ${formatCount(use.days[0]?.used ?? 0)} to ${formatCount(used)}`}
            />
          )}
        </Group>
        <IdleList use={use} organizationId={organizationId} />
      </Stack>
    </Card>
  );
}

/**
 * The licences screen's 'Seat use' (issue 16; decision 014): per licence of the organization, the seats used
 * each day of the last 90 against the maximum, and the seats held by people who have not used the product
 * for 30 days, with a way to their row in Users (change their licence or remove them there).
 */
export function SeatUseSection({ organization }: { organization: { id: string; name: string } }) {
  const { data, isPending, isError, error, refetch, isRefetching } = useLicenseUsage(organization.id, DAYS);
  return (
    <Stack gap="sm" component="section" aria-labelledby="seat-use-heading">
      <Stack gap={2}>
        <Title order={2} fz="h4" id="seat-use-heading">
          Seat use
        </Title>
        <Text size="sm" c="dimmed">
          Seats used per day over the last {DAYS} days, and the seats of {organization.name} held by people
          who have not used the product for {IDLE_SEAT_DAYS} days.
        </Text>
      </Stack>
      {isPending ? (
        <Skeleton height={140} role="status" aria-busy="true" aria-label="Loading the seat use" />
      ) : isError ? (
        <LoadError
          title="The seat use could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : data.licenses.length === 0 ? (
        <Text size="sm" c="dimmed">
          {organization.name} holds no licence.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {data.licenses.map((use) => (
            <LicenceUseCard key={use.licenseId} use={use} organizationId={organization.id} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
