import { Button, Group, Text } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { Link } from 'react-router';

interface ImportSeatLimitProps {
  organizationId: string;
  /** manage_org_license: the caller may buy seats ('Add more' on the Licenses screen). */
  canBuySeats: boolean;
}

/**
 * The way forward when an import does not fit the licence seats (a preview that is short, or the 402 of the
 * import): a link to the organization's Licenses screen, where 'Add more' buys seats; without the permission
 * to buy, whom to ask.
 */
export function ImportSeatLimit({ organizationId, canBuySeats }: ImportSeatLimitProps) {
  if (!canBuySeats) {
    return (
      <Text size="sm" mt={6}>
        Ask an owner to add seats.
      </Text>
    );
  }
  return (
    <Group gap="sm" mt={8} wrap="wrap">
      <Button
        component={Link}
        to={`/${encodeURIComponent(organizationId)}/licenses`}
        size="xs"
        variant="light"
        color="orange"
        leftSection={<IconShoppingCart size={16} aria-hidden="true" />}
      >
        Add more seats
      </Button>
      <Text size="xs" c="dimmed">
        Opens the Licenses screen: 'Add more' on a licence buys seats.
      </Text>
    </Group>
  );
}
