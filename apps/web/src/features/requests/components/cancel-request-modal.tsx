import type { UpTreeRequest } from '@allot/domain/requests';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { useCancelRequest } from '../api/cancel-request';
import { askedText } from '../forms/request-texts';

interface CancelRequestModalProps {
  /** The organization's own open request; null keeps the dialog closed. */
  request: UpTreeRequest | null;
  onClose: () => void;
}

/** Confirmation before cancelling one's own open request; a refusal (`409`: decided meanwhile) stays here. */
export function CancelRequestModal({ request, onClose }: CancelRequestModalProps) {
  const cancel = useCancelRequest();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    cancel.reset();
    onClose();
  }

  async function confirm() {
    if (!request) return;
    setError(null);
    try {
      await cancel.mutateAsync(request);
      notifications.show({
        color: 'green',
        title: 'Request cancelled',
        message: `${request.parentOrganization.name} no longer has it to decide.`,
      });
      close();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  return (
    <Modal opened={request !== null} onClose={close} title="Cancel this request?" centered>
      {request && (
        <Stack gap="md">
          {error && <FormAlert title="Not cancelled">{error}</FormAlert>}
          <Text size="sm">
            The request to {request.parentOrganization.name} for{' '}
            <Text span fw={600} inherit>
              {askedText(request)}
            </Text>{' '}
            is withdrawn: its admins can no longer approve it. To ask again, send a new request.
          </Text>
          <DialogFoot>
            <Button variant="default" onClick={close} disabled={cancel.isPending}>
              Keep it
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={cancel.isPending}>
              Cancel request
            </Button>
          </DialogFoot>
        </Stack>
      )}
    </Modal>
  );
}
