import { LICENSE_TYPE_LABEL, type License } from '@allot/domain/organizations';
import { Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCalendarPlus, IconPencil, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { formatCount, formatDateLong, formatDay } from '../../../lib/format';
import { expiryState } from '../forms/expiry';
import { ExpiryBadge } from './expiry-badge';

export interface LicenceActions {
  /** 'Extend' and 'Add more': an invoice (manage_org_license). */
  onExtend?: (license: License) => void;
  onAddMore?: (license: License) => void;
  /** System admins: change seats and expiry, delete. */
  onEdit?: (license: License) => void;
  onDelete?: (license: License) => void;
}

function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** One licence: its type, seats used of those held, free seats, expiry (flagged near and past it), actions. */
export function LicenceCard({
  license,
  now,
  actions,
}: {
  license: License;
  now: Date;
  actions: LicenceActions;
}) {
  const label = LICENSE_TYPE_LABEL[license.licenseType];
  // The server's word on expiry first (its clock), then the browser's (the page may stay open past it).
  const state = license.expired ? 'expired' : expiryState(license.expireAt, now);
  const free = state === 'expired' ? 0 : Math.max(0, license.maxUsers - license.usedSeats);
  const share = license.maxUsers > 0 ? Math.min(100, (license.usedSeats / license.maxUsers) * 100) : 100;
  const full = license.usedSeats >= license.maxUsers;
  const headingId = `licence-${license.id}`;
  const { onAddMore, onEdit, onDelete } = actions;
  // Seats received from above follow that licence's expiry: it is extended there, not here.
  const onExtend = license.source ? undefined : actions.onExtend;

  return (
    <Card component="article" aria-labelledby={headingId} padding="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Title order={3} fz="h5" id={headingId}>
            {label}
          </Title>
          <ExpiryBadge state={state} />
        </Group>
        <Stack gap={6}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              Seats used
            </Text>
            <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
              <Text span fw={700} inherit>
                {formatCount(license.usedSeats)}
              </Text>{' '}
              of {formatCount(license.maxUsers)}
            </Text>
          </Group>
          <Progress
            value={share}
            color={full ? 'red' : 'indigo'}
            size="md"
            aria-label={`${label}: ${formatCount(license.usedSeats)} of ${formatCount(license.maxUsers)} seats used`}
          />
        </Stack>
        <SimpleGrid component="dl" cols={3} spacing="sm" m={0}>
          <Figure label="Free seats">{formatCount(free)}</Figure>
          <Figure label="Handed down">{formatCount(license.handedDown)}</Figure>
          <Figure label={state === 'expired' ? 'Expired on' : 'Expires'}>
            <Tooltip
              label={formatDateLong(license.expireAt)}
              events={{ hover: true, focus: true, touch: true }}
            >
              <Text
                component="time"
                dateTime={license.expireAt}
                inherit
                tabIndex={0}
                style={{ cursor: 'help' }}
              >
                {formatDay(license.expireAt)}
              </Text>
            </Tooltip>
          </Figure>
        </SimpleGrid>
        {license.source && (
          <Text size="xs" c="dimmed">
            Seats from {license.source.organizationName}: the expiry follows that licence and is extended
            there.
          </Text>
        )}
        {(onExtend || onAddMore || onEdit || onDelete) && (
          <Group gap="xs" justify="space-between" pt={4}>
            <Group gap="xs">
              {onExtend && (
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconCalendarPlus size={14} aria-hidden="true" />}
                  aria-label={`Extend the ${label} licence`}
                  onClick={() => onExtend(license)}
                >
                  Extend
                </Button>
              )}
              {onAddMore && (
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconUserPlus size={14} aria-hidden="true" />}
                  aria-label={`Add more ${label} seats`}
                  onClick={() => onAddMore(license)}
                >
                  Add more
                </Button>
              )}
            </Group>
            <Group gap="xs">
              {onEdit && (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconPencil size={14} aria-hidden="true" />}
                  aria-label={`Edit the ${label} licence`}
                  onClick={() => onEdit(license)}
                >
                  Edit
                </Button>
              )}
              {onDelete && (
                <Button
                  size="xs"
                  variant="default"
                  color="red"
                  c="red.8"
                  leftSection={<IconTrash size={14} aria-hidden="true" />}
                  aria-label={`Delete the ${label} licence`}
                  onClick={() => onDelete(license)}
                >
                  Delete
                </Button>
              )}
            </Group>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
