import { declineRequestSchema, REQUEST_NOTE_MAX, type UpTreeRequest } from '@allot/domain/requests';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { useDeclineRequest } from '../api/decline-request';
import { RequestFacts } from './request-facts';

interface DeclineRequestModalProps {
  /** The open request to decline; null keeps the dialog closed. */
  request: UpTreeRequest | null;
  onClose: () => void;
}

/** Decline (CONTRACT §11), with the reason the asking organization reads; `409` stays in the dialog. */
export function DeclineRequestModal({ request, onClose }: DeclineRequestModalProps) {
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      title={request ? `Decline the request of ${request.organization.name}` : 'Decline the request'}
      size="lg"
      centered
    >
      {request && <DeclineForm request={request} onClose={onClose} />}
    </Modal>
  );
}

type Values = z.input<typeof declineRequestSchema>;

function DeclineForm({ request, onClose }: { request: UpTreeRequest; onClose: () => void }) {
  const decline = useDeclineRequest();
  const [failure, setFailure] = useState<string | null>(null);
  const words = useMailWords();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, z.output<typeof declineRequestSchema>>({
    resolver: zodResolver(declineRequestSchema),
    defaultValues: { reason: '' },
  });

  async function submit({ reason }: z.output<typeof declineRequestSchema>) {
    setFailure(null);
    try {
      await decline.mutateAsync({ request, reason });
      notifications.show({
        color: 'green',
        title: 'Request declined',
        message: words.request.declined(request.organization.name),
      });
      onClose();
    } catch (error) {
      setFailure(
        applyServerErrors(error, ['reason'] as const, (field, message) => setError(field, { message })),
      );
    }
  }

  return (
    <form noValidate aria-label="Decline the request" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {failure && <FormAlert title="Not declined">{failure}</FormAlert>}
        <RequestFacts request={request} />
        <Textarea
          label="Reason"
          required
          description={`The admins of ${request.organization.name} read it. At most ${REQUEST_NOTE_MAX} characters.`}
          autosize
          minRows={3}
          maxRows={8}
          data-autofocus
          error={errors.reason?.message}
          {...register('reason')}
        />
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Decline request" />
      </Stack>
    </form>
  );
}
