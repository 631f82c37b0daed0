import { Button, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { TwoFactorCodeForm, type TwoFactorCodeValues } from './two-factor-code-form';

interface ConfirmTwoFactorModalProps {
  opened: boolean;
  title: string;
  explanation: ReactNode;
  submitLabel: string;
  failureTitle: string;
  /** Sends the password and code; throws the API's error. */
  submit: (values: TwoFactorCodeValues) => Promise<void>;
  onClose: () => void;
}

/** A change of one's two-factor that needs the password and a code (turning it off, new recovery codes). */
export function ConfirmTwoFactorModal({
  opened,
  title,
  explanation,
  submitLabel,
  failureTitle,
  submit,
  onClose,
}: ConfirmTwoFactorModalProps) {
  const [error, setError] = useState<string | null>(null);
  function close() {
    setError(null);
    onClose();
  }
  async function onSubmit(values: TwoFactorCodeValues, setFieldError: UseFormSetError<TwoFactorCodeValues>) {
    setError(null);
    try {
      await submit(values);
    } catch (cause) {
      setError(
        applyServerErrors(cause, ['password', 'code'], (field, message) => setFieldError(field, { message })),
      );
    }
  }
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack gap="md">
        <Text size="sm">{explanation}</Text>
        <TwoFactorCodeForm
          label={title}
          withPassword
          submitLabel={submitLabel}
          alert={error && <FormAlert title={failureTitle}>{error}</FormAlert>}
          onSubmit={onSubmit}
        >
          <Button variant="subtle" color="gray" onClick={close}>
            Cancel
          </Button>
        </TwoFactorCodeForm>
      </Stack>
    </Modal>
  );
}
