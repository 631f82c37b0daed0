import type { Organization } from '@allot/domain/organizations';
import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSend } from '@tabler/icons-react';
import { useAbove } from '../api/get-above';
import { AskAboveModal, type AskPreset } from './ask-above-modal';

const WRAPPING = {
  root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 6 },
  label: { whiteSpace: 'normal', textAlign: 'left' },
} as const;

interface AskAboveButtonProps extends Omit<ButtonProps, 'children'> {
  organization: Organization;
  /** The button's text; "Ask {parent}" when absent. */
  label?: (parentName: string) => string;
  preset?: AskPreset;
  onSent?: () => void;
}

/**
 * "Ask {parent}" and its dialog, once the organization above is known. Shown only where the caller may ask
 * (`useRequestRights().mayAsk`): the caller decides that, not this button.
 */
export function AskAboveButton({ organization, label, preset, onSent, ...button }: AskAboveButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const { data: above } = useAbove(organization.id);
  const parent = above?.parent;
  if (!parent) return null;
  return (
    <>
      {/* A long name wraps on a phone rather than being cut off. */}
      <Button
        leftSection={<IconSend size={16} aria-hidden="true" />}
        onClick={open}
        styles={WRAPPING}
        {...button}
      >
        {label ? label(parent.name) : `Ask ${parent.name}`}
      </Button>
      <AskAboveModal
        opened={opened}
        onClose={close}
        organization={organization}
        parent={parent}
        freeSeats={above.freeSeats}
        preset={preset}
        onSent={onSent}
      />
    </>
  );
}
