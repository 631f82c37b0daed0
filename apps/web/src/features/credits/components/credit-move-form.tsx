import { Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { DialogActions } from '../../../components/dialog-actions';
import { CreditMoveAlert } from './credit-move-alert';

interface CreditModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** False while there is nothing to move (no party selected): the form is not shown. */
  ready?: boolean;
  children: ReactNode;
}

/** The dialog of a credit move; its form is mounted afresh each time it opens. */
export function CreditModal({ opened, onClose, title, ready = true, children }: CreditModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" centered>
      {opened && ready && children}
    </Modal>
  );
}

interface CreditMoveFormProps<Input extends FieldValues, Output extends FieldValues> {
  /** The form's accessible name. */
  label: string;
  /** The dialog's form (useCreditForm): how it is sent, whether it is being sent, the server's refusal. */
  form: Pick<UseFormReturn<Input, unknown, Output>, 'handleSubmit' | 'formState'> & {
    failure: string | null;
  };
  /** Sends the valid values. */
  onSubmit: (values: Output) => Promise<void>;
  /** A reclaim: the alert says the credits were not reclaimed. */
  reclaim?: boolean;
  submitLabel?: string;
  /** Nothing to send (e.g. nobody holds anything to reclaim). */
  submitDisabled?: boolean;
  onCancel: () => void;
  children: ReactNode;
}

/** The frame of a credit dialog's form: the refusal alert, the fields, then Cancel and the submit button. */
export function CreditMoveForm<Input extends FieldValues, Output extends FieldValues>({
  label,
  form,
  onSubmit,
  reclaim,
  submitLabel = label,
  submitDisabled,
  onCancel,
  children,
}: CreditMoveFormProps<Input, Output>) {
  return (
    <form noValidate aria-label={label} onSubmit={form.handleSubmit(onSubmit)}>
      <Stack gap="sm">
        {form.failure && <CreditMoveAlert reclaim={reclaim} message={form.failure} />}
        {children}
        <DialogActions
          onCancel={onCancel}
          busy={form.formState.isSubmitting}
          submitLabel={submitLabel}
          submitDisabled={submitDisabled}
        />
      </Stack>
    </form>
  );
}
