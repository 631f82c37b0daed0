import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useDeleteOrganization } from '../api/delete-organization';

interface DeleteOrganizationModalProps {
  /** The organization to delete; null keeps the dialog closed. */
  organization: { id: string; name: string; parentOrganizationId: string | null } | null;
  /** Where its credits and licence seats go back to. */
  parentName: string;
  onClose: () => void;
  onDeleted?: (id: string) => void;
}

/** Confirmation before DELETE /api/organization/{id}/delete; a refusal (409, 403) is shown in the dialog. */
export function DeleteOrganizationModal({
  organization,
  parentName,
  onClose,
  onDeleted,
}: DeleteOrganizationModalProps) {
  const remove = useDeleteOrganization();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    remove.reset();
    onClose();
  }

  async function confirm() {
    if (!organization) return;
    setError(null);
    try {
      await remove.mutateAsync(organization);
      notifications.show({
        color: 'green',
        title: 'Organization deleted',
        message: `${organization.name} was deleted.`,
      });
      onDeleted?.(organization.id);
      close();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'Something went wrong, please try again later.');
    }
  }

  return (
    <Modal
      opened={organization !== null}
      onClose={close}
      title={organization ? `Delete ${organization.name}?` : 'Delete organization?'}
      centered
    >
      <Stack gap="md">
        {error && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle aria-hidden="true" />}
            title="Not deleted"
          >
            {error}
          </Alert>
        )}
        <Text size="sm">
          <Text span fw={600} inherit>
            {organization?.name}
          </Text>{' '}
          will be deleted. Its credits and licence seats go back to{' '}
          <Text span fw={600} inherit>
            {parentName}
          </Text>
          , and its members lose their role in it.
        </Text>
        <Text size="sm" c="dimmed">
          This cannot be undone.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={remove.isPending}>
            Delete organization
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
