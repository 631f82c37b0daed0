import type { IntegrationKey } from '@allot/domain/integration';
import { Button, Code, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { useRevokeIntegrationKey } from '../api/revoke-integration-key';
import { shownKey } from '../key-text';

interface RevokeIntegrationKeyModalProps {
  /** The key to revoke; null keeps the dialog closed. */
  integrationKey: IntegrationKey | null;
  organization: { id: string; name: string };
  onClose: () => void;
}

/** Confirmation before DELETE /api/organization/{id}/integration-keys/{keyId}: what stops, and that it is at once. */
export function RevokeIntegrationKeyModal({
  integrationKey,
  organization,
  onClose,
}: RevokeIntegrationKeyModalProps) {
  const revoke = useRevokeIntegrationKey();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    revoke.reset();
    onClose();
  }

  async function confirm() {
    if (!integrationKey) return;
    setError(null);
    try {
      await revoke.mutateAsync({ organizationId: organization.id, keyId: integrationKey.id });
      notifications.show({
        color: 'green',
        title: 'Key revoked',
        message: `${integrationKey.name} no longer works: the classroom product using it is refused.`,
      });
      close();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  return (
    <Modal
      opened={integrationKey !== null}
      onClose={close}
      title={integrationKey ? `Revoke ${integrationKey.name}?` : 'Revoke key?'}
      centered
    >
      {integrationKey && (
        <Stack gap="md">
          {error && <FormAlert title="Not revoked">{error}</FormAlert>}
          <Text size="sm">
            The classroom product using{' '}
            <Text span fw={600} inherit>
              {integrationKey.name}
            </Text>{' '}
            stops at once: from its next call, every call with the key{' '}
            <Code style={{ whiteSpace: 'nowrap' }}>{shownKey(integrationKey.prefix)}</Code> is refused, for{' '}
            {organization.name} and every organization below it.
          </Text>
          <Text size="sm" c="dimmed">
            This cannot be undone. To connect the product again, create a new key and put it in its settings.
          </Text>
          <DialogFoot>
            <Button variant="default" onClick={close} disabled={revoke.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={revoke.isPending}>
              Revoke key
            </Button>
          </DialogFoot>
        </Stack>
      )}
    </Modal>
  );
}
