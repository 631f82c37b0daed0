import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

interface DialogActionsProps {
  onCancel: () => void;
  /** While the answer is awaited: the submit button spins, Cancel waits. */
  busy: boolean;
  submitLabel: ReactNode;
  /** The submit button greyed out (nothing changed yet, no choice made). */
  submitDisabled?: boolean;
}

/** The foot of a dialog's form: Cancel, then the button that submits it. */
export function DialogActions({ onCancel, busy, submitLabel, submitDisabled }: DialogActionsProps) {
  return (
    <Group justify="flex-end" mt="xs">
      <Button variant="default" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" loading={busy} disabled={submitDisabled}>
        {submitLabel}
      </Button>
    </Group>
  );
}
