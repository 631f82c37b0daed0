import { Button, type ButtonProps, CopyButton, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * Copies a text shown once (a key, recovery codes): "Copied" with a check for three seconds, and the same said
 * to a screen reader (`announcement`).
 */
export function CopyTextButton({
  value,
  label,
  announcement,
  variant = 'default',
}: {
  value: string;
  label: string;
  announcement: string;
  variant?: ButtonProps['variant'];
}) {
  return (
    <CopyButton value={value} timeout={3_000}>
      {({ copied, copy }) => (
        <>
          <Button
            variant={copied && variant === 'filled' ? 'light' : variant}
            color={copied ? 'teal' : undefined}
            leftSection={
              copied ? <IconCheck size={16} aria-hidden="true" /> : <IconCopy size={16} aria-hidden="true" />
            }
            onClick={copy}
          >
            {copied ? 'Copied' : label}
          </Button>
          <VisuallyHidden aria-live="polite">{copied ? announcement : ''}</VisuallyHidden>
        </>
      )}
    </CopyButton>
  );
}
