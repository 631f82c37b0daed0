import { FULFILMENT_LABEL, type FulfilmentMethod, type Invoice } from '@allot/domain/invoices';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { useFulfilInvoice } from '../api/fulfil-invoice';
import { methodSentence, purchaseSentence } from '../forms/invoice-texts';

export interface FulfilTarget {
  invoice: Invoice;
  method: FulfilmentMethod;
}

interface FulfilInvoiceModalProps {
  /** The invoice and the option chosen; null keeps the dialog closed. */
  target: FulfilTarget | null;
  onClose: () => void;
}

/**
 * The confirmation of a fulfilment option (spec §4: fulfil, paid another way, fulfil for free): what will be
 * applied and how the invoice is settled. A refusal (409: fulfilled or void meanwhile) stays in the dialog.
 */
export function FulfilInvoiceModal({ target, onClose }: FulfilInvoiceModalProps) {
  const fulfil = useFulfilInvoice();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    fulfil.reset();
    onClose();
  }

  async function confirm() {
    if (!target) return;
    setError(null);
    try {
      const done = await fulfil.mutateAsync(target);
      notifications.show({
        color: 'green',
        title: 'Invoice fulfilled',
        message: `${done.number} is fulfilled: ${done.description}, ${done.organizationName}.`,
      });
      close();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  const label = target ? FULFILMENT_LABEL[target.method] : 'Fulfil';
  return (
    <Modal
      opened={target !== null}
      onClose={close}
      title={target ? `${label}: ${target.invoice.number}?` : 'Fulfil?'}
      centered
    >
      {target && (
        <Stack gap="md">
          {error && <FormAlert title="Not fulfilled">{error}</FormAlert>}
          <Text size="sm" fw={600}>
            {purchaseSentence(target.invoice)}
          </Text>
          <Text size="sm">{methodSentence(target.method, target.invoice)}</Text>
          <Text size="sm" c="dimmed">
            This is applied once and cannot be undone.
          </Text>
          <DialogFoot>
            <Button variant="default" onClick={close} disabled={fulfil.isPending}>
              Cancel
            </Button>
            <Button onClick={() => void confirm()} loading={fulfil.isPending} data-autofocus>
              {label}
            </Button>
          </DialogFoot>
        </Stack>
      )}
    </Modal>
  );
}
