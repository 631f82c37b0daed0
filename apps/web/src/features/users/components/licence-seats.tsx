import { LICENSE_TYPE_LABEL, type License } from '@allot/domain/organizations';
import { Group, Paper, Progress, SimpleGrid, Text } from '@mantine/core';
import { formatCount } from '../../../lib/format';
import { unusedSeats } from '../../../lib/seats';

/** Seats used per licence of the organization, above the users table. */
export function LicenceSeats({ licenses }: { licenses: License[] }) {
  if (licenses.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This organization has no licence: the number of users is not limited.
      </Text>
    );
  }
  return (
    <SimpleGrid
      component="section"
      aria-label="Licence seats"
      cols={{ base: 1, xs: 2, md: Math.min(licenses.length, 4) }}
      spacing="sm"
    >
      {licenses.map((license) => {
        const label = LICENSE_TYPE_LABEL[license.licenseType];
        const full = unusedSeats(license) === 0;
        const share = license.maxUsers > 0 ? (license.usedSeats / license.maxUsers) * 100 : 100;
        return (
          <Paper key={license.id} withBorder px="md" py="sm" aria-label={`${label} seats`} role="group">
            <Group justify="space-between" gap="xs" mb={6} wrap="nowrap">
              <Text size="sm" fw={600}>
                {label}
              </Text>
              <Text size="sm" c={full ? 'red.7' : undefined}>
                <Text span fw={600} inherit>
                  {formatCount(license.usedSeats)} / {formatCount(license.maxUsers)}
                </Text>{' '}
                seats used
              </Text>
            </Group>
            <Progress
              value={Math.min(share, 100)}
              color={full ? 'red' : 'indigo'}
              size="sm"
              aria-label={`${label}: ${license.usedSeats} of ${license.maxUsers} seats used`}
            />
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
