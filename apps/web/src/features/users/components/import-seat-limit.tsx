import { Group, Text } from '@mantine/core';
import { MoreSeatsLink } from './more-seats-link';

interface ImportSeatLimitProps {
  organizationId: string;
  /** manage_org_license: the caller may buy seats ('Add more' on the Licenses screen). */
  canBuySeats: boolean;
}

/** The way forward when an import does not fit the licence seats (a preview that is short, or the 402). */
export function ImportSeatLimit({ organizationId, canBuySeats }: ImportSeatLimitProps) {
  return (
    <Group gap="sm" mt={8} wrap="wrap">
      <MoreSeatsLink organizationId={organizationId} canBuySeats={canBuySeats} label="Add more seats" />
      {canBuySeats && (
        <Text size="xs" c="dimmed">
          Opens the Licenses screen: 'Add more' on a licence buys seats.
        </Text>
      )}
    </Group>
  );
}
