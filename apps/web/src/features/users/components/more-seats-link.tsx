import { Anchor, Button } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { Link } from 'react-router';

interface MoreSeatsLinkProps {
  organizationId: string;
  /** manage_org_license: the viewer may buy seats ('Add more' on the Licenses screen). */
  canBuySeats: boolean;
  /** The button's text for those who may buy, e.g. 'Buy seats'. */
  label: string;
}

/**
 * The way forward when the licence seats are all used (Add user, an import that does not fit): the
 * organization's Licenses screen, where 'Add more' buys seats; without the permission to buy, whom to ask.
 */
export function MoreSeatsLink({ organizationId, canBuySeats, label }: MoreSeatsLinkProps) {
  const licenses = `/${encodeURIComponent(organizationId)}/licenses`;
  if (!canBuySeats) {
    return (
      <Anchor component={Link} to={licenses} size="sm">
        Ask an owner to add seats
      </Anchor>
    );
  }
  return (
    <Button
      component={Link}
      to={licenses}
      size="xs"
      variant="light"
      color="orange"
      leftSection={<IconShoppingCart size={16} aria-hidden="true" />}
    >
      {label}
    </Button>
  );
}
