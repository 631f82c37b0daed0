import { ActionIcon, Button } from '@mantine/core';
import { IconReceipt2 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session';

/**
 * The way to the price list, in the headers: for system admins only (they alone change it). On a phone an icon
 * with its name for screen readers, so the header keeps to one line.
 */
export function PriceListLink() {
  const session = useSession();
  if (session.role !== 'system_admin') return null;
  return (
    <>
      <Button
        component={Link}
        to="/price-list"
        variant="subtle"
        size="compact-sm"
        visibleFrom="xs"
        leftSection={<IconReceipt2 size={16} aria-hidden="true" />}
      >
        Price list
      </Button>
      <ActionIcon
        component={Link}
        to="/price-list"
        variant="subtle"
        size="lg"
        hiddenFrom="xs"
        aria-label="Price list"
      >
        <IconReceipt2 size={18} aria-hidden="true" />
      </ActionIcon>
    </>
  );
}
