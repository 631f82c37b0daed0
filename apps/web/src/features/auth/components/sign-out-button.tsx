import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useSignOut } from '../hooks/use-sign-out';

/** Sign out, in the header; compact on a phone, so the header keeps to one line. */
export function SignOutButton() {
  const { signOut, pending } = useSignOut();
  const icon = <IconLogout size={16} aria-hidden="true" />;
  return (
    <>
      <Button
        variant="default"
        size="sm"
        visibleFrom="xs"
        leftSection={icon}
        loading={pending}
        onClick={() => void signOut()}
      >
        Sign out
      </Button>
      <Button
        variant="default"
        size="compact-sm"
        hiddenFrom="xs"
        leftSection={icon}
        loading={pending}
        onClick={() => void signOut()}
      >
        Sign out
      </Button>
    </>
  );
}
