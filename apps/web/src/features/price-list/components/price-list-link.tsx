import { ActionIcon, Button } from '@mantine/core';
import { IconFileInvoice, IconReceipt2 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session';

/**
 * The ways to billing (every organization's invoices) and the price list, in the headers: for system admins only
 * (they alone fulfil invoices and change prices). On a phone icons with their names for screen readers, so the
 * header keeps to one line.
 */
export function PriceListLink() {
  const session = useSession();
  if (session.role !== 'system_admin') return null;
  return (
    <>
      {/* The billing queue (issue 33): the invoices of every organization. */}
      <Button
        component={Link}
        to="/billing"
        variant="subtle"
        size="compact-sm"
        visibleFrom="xs"
        leftSection={<IconFileInvoice size={16} aria-hidden="true" />}
      >
        Billing
      </Button>
      <ActionIcon
        component={Link}
        to="/billing"
        variant="subtle"
        size="lg"
        hiddenFrom="xs"
        aria-label="Billing"
      >
        <IconFileInvoice size={18} aria-hidden="true" />
      </ActionIcon>
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
