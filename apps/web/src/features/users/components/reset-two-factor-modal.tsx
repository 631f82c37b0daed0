import type { OrganizationUser } from '@allot/domain/users';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { useResetUserTwoFactor } from '../api/reset-user-two-factor';

interface ResetTwoFactorModalProps {
  /** The person; null keeps the dialog closed. */
  user: OrganizationUser | null;
  onClose: () => void;
}

/** Confirmation before a system admin turns off someone's two-factor sign-in. */
export function ResetTwoFactorModal({ user, onClose }: ResetTwoFactorModalProps) {
  const reset = useResetUserTwoFactor();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    reset.reset();
    onClose();
  }

  async function confirm() {
    if (!user) return;
    setError(null);
    try {
      await reset.mutateAsync(user.id);
      notifications.show({
        color: 'green',
        title: 'Two-factor sign-in reset',
        message: `${user.name} signs in with their password now.`,
      });
      close();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  return (
    <Modal
      opened={user !== null}
      onClose={close}
      title={user ? `Reset two-factor sign-in of ${user.name}?` : 'Reset two-factor sign-in?'}
      centered
    >
      {user && (
        <Stack gap="md">
          {error && <FormAlert title="Not reset">{error}</FormAlert>}
          <Text size="sm">
            For a lost phone: the authenticator app and the recovery codes of{' '}
            <Text span fw={600} inherit style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Text>{' '}
            stop working, and every session of the account ends. They sign in with their password; where an
            organization requires two-factor, they set it up again at that sign-in.
          </Text>
          <Text size="sm" c="dimmed">
            Make sure it is really them who asked. The reset is in the audit log.
          </Text>
          <DialogFoot>
            <Button variant="default" onClick={close} disabled={reset.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={reset.isPending}>
              Reset two-factor
            </Button>
          </DialogFoot>
        </Stack>
      )}
    </Modal>
  );
}
