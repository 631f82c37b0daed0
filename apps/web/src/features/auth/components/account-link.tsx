import { ActionIcon, Button } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { Link } from 'react-router';

/**
 * The way to the signed-in person's own account (two-factor sign-in), in the headers. On a phone an icon with
 * its name for screen readers, so the header keeps to one line beside Price list and Sign out.
 */
export function AccountLink() {
  return (
    <>
      <Button
        component={Link}
        to="/account"
        variant="subtle"
        size="compact-sm"
        visibleFrom="xs"
        leftSection={<IconUserShield size={16} aria-hidden="true" />}
      >
        Account
      </Button>
      <ActionIcon
        component={Link}
        to="/account"
        variant="subtle"
        size="lg"
        hiddenFrom="xs"
        aria-label="Account"
      >
        <IconUserShield size={18} aria-hidden="true" />
      </ActionIcon>
    </>
  );
}
