import { LICENSE_TYPE_LABEL, type License } from '@allot/domain/organizations';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { formatCount } from '../../../lib/format';
import { useDeleteLicense } from '../api/delete-license';

interface DeleteLicenceModalProps {
  /** The licence to delete; null keeps the dialog closed. */
  license: License | null;
  organizationName: string;
  onClose: () => void;
}

/** Confirmation before DELETE /api/license/{id}/delete (system admins); a 409 (seats in use) stays in the dialog. */
export function DeleteLicenceModal({ license, organizationName, onClose }: DeleteLicenceModalProps) {
  const remove = useDeleteLicense();
  const [error, setError] = useState<string | null>(null);
  const label = license ? LICENSE_TYPE_LABEL[license.licenseType] : '';

  function close() {
    setError(null);
    remove.reset();
    onClose();
  }

  async function confirm() {
    if (!license) return;
    setError(null);
    try {
      await remove.mutateAsync(license);
      notifications.show({
        color: 'green',
        title: 'Licence deleted',
        message: `The ${label} licence of ${organizationName} was deleted.`,
      });
      close();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  return (
    <Modal
      opened={license !== null}
      onClose={close}
      title={license ? `Delete the ${label} licence?` : 'Delete licence?'}
      centered
    >
      {license && (
        <Stack gap="md">
          {error && <FormAlert title="Not deleted">{error}</FormAlert>}
          <Text size="sm">
            The{' '}
            <Text span fw={600} inherit>
              {label}
            </Text>{' '}
            licence of{' '}
            <Text span fw={600} inherit>
              {organizationName}
            </Text>{' '}
            and its {formatCount(license.maxUsers)} seats will be deleted. Seats in use or handed down to
            sub-organizations must be freed first.
          </Text>
          <Text size="sm" c="dimmed">
            This cannot be undone.
          </Text>
          <DialogFoot>
            <Button variant="default" onClick={close} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={remove.isPending}>
              Delete licence
            </Button>
          </DialogFoot>
        </Stack>
      )}
    </Modal>
  );
}
