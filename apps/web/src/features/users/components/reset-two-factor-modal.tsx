import { MFA_MSG } from '@allot/domain/mfa';
import type { OrganizationUser } from '@allot/domain/users';
import { Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { OwnCodeConfirmation } from '../../../components/own-code-confirmation';
import { useResetUserTwoFactor } from '../api/reset-user-two-factor';

interface ResetTwoFactorModalProps {
  /** The person; null keeps the dialog closed. */
  user: OrganizationUser | null;
  onClose: () => void;
}

const titleOf = (user: OrganizationUser | null) =>
  user ? `Reset two-factor sign-in of ${user.name}?` : 'Reset two-factor sign-in?';

/**
 * Confirmation before a system admin turns off someone's two-factor sign-in, with a code of the admin's own
 * two-factor (CONTRACT §3).
 */
export function ResetTwoFactorModal({ user, onClose }: ResetTwoFactorModalProps) {
  // The last person asked about: the dialog keeps its title while it fades out.
  const [shown, setShown] = useState(user);
  if (user !== null && user !== shown) setShown(user);
  return (
    <Modal opened={user !== null} onClose={onClose} title={titleOf(shown)} centered>
      {user && <ResetTwoFactorForm user={user} onClose={onClose} />}
    </Modal>
  );
}

function ResetTwoFactorForm({ user, onClose }: { user: OrganizationUser; onClose: () => void }) {
  const reset = useResetUserTwoFactor();
  async function submit(code: string) {
    await reset.mutateAsync({ userId: user.id, code });
    notifications.show({
      color: 'green',
      title: 'Two-factor sign-in reset',
      message: `${user.name} signs in with their password now.`,
    });
    onClose();
  }
  return (
    <OwnCodeConfirmation
      label={titleOf(user)}
      submitLabel="Reset two-factor"
      submitColor="red"
      failureTitle="Not reset"
      ownOffText={MFA_MSG.ownNeeded}
      submit={submit}
      onCancel={onClose}
    >
      <Stack gap="xs">
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
      </Stack>
    </OwnCodeConfirmation>
  );
}
