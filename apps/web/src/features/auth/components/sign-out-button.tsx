import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useSignOut } from '../hooks/use-sign-out';

export function SignOutButton() {
  const { signOut, pending } = useSignOut();
  return (
    <Button
      variant="default"
      size="sm"
      leftSection={<IconLogout size={16} aria-hidden="true" />}
      loading={pending}
      onClick={() => void signOut()}
    >
      Sign out
    </Button>
  );
}
