import { formatMoney, type Invoice } from '@allot/domain/invoices';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { useVoidInvoice } from '../api/void-invoice';

interface VoidInvoiceModalProps {
  /** The invoice to void; null keeps the dialog closed. */
  invoice: Invoice | null;
  onClose: () => void;
}

/** Confirmation before POST /api/invoice/{id}/void; a refusal (409: fulfilled meanwhile) stays in the dialog. */
export function VoidInvoiceModal({ invoice, onClose }: VoidInvoiceModalProps) {
  const voiding = useVoidInvoice();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    voiding.reset();
    onClose();
  }

  async function confirm() {
    if (!invoice) return;
    setError(null);
    try {
      const done = await voiding.mutateAsync(invoice);
      notifications.show({ color: 'green', title: 'Invoice void', message: `${done.number} is void.` });
      close();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  return (
    <Modal
      opened={invoice !== null}
      onClose={close}
      title={invoice ? `Void ${invoice.number}?` : 'Void invoice?'}
      centered
    >
      {invoice && (
        <Stack gap="md">
          {error && <FormAlert title="Not voided">{error}</FormAlert>}
          <Text size="sm">
            <Text span fw={600} inherit>
              {invoice.number}
            </Text>{' '}
            ({invoice.description}, {formatMoney(invoice.amount, invoice.currency)}) will be void: it can no
            longer be fulfilled, and nothing is added to {invoice.organizationName}.
          </Text>
          <Text size="sm" c="dimmed">
            This cannot be undone; to buy the same again, create a new invoice.
          </Text>
          <DialogFoot>
            <Button variant="default" onClick={close} disabled={voiding.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm()} loading={voiding.isPending}>
              Void invoice
            </Button>
          </DialogFoot>
        </Stack>
      )}
    </Modal>
  );
}
