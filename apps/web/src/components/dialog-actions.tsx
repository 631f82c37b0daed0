import { Button, type ButtonProps, Group, type GroupProps } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './dialog-actions.module.css';

interface DialogActionsProps {
  onCancel: () => void;
  /** While the answer is awaited: the submit button spins, Cancel waits. */
  busy: boolean;
  submitLabel: ReactNode;
  /** The submit button greyed out (nothing changed yet, no choice made). */
  submitDisabled?: boolean;
  /** The submit button's colour: red for a change that removes something; the theme's by default. */
  submitColor?: ButtonProps['color'];
}

/** The foot of a dialog: its buttons, kept in sight at the dialog's bottom edge while its body scrolls. */
export function DialogFoot({ justify = 'flex-end', children }: Pick<GroupProps, 'justify' | 'children'>) {
  return (
    <Group justify={justify} className={classes.foot}>
      {children}
    </Group>
  );
}

/** The foot of a dialog's form: Cancel, then the button that submits it. */
export function DialogActions({
  onCancel,
  busy,
  submitLabel,
  submitDisabled,
  submitColor,
}: DialogActionsProps) {
  return (
    <DialogFoot>
      <Button variant="default" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" color={submitColor} loading={busy} disabled={submitDisabled}>
        {submitLabel}
      </Button>
    </DialogFoot>
  );
}
