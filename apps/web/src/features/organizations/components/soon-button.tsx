import { Button, type ButtonProps, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * An action a coming release wires up. It stays focusable (aria-disabled, not disabled) so that
 * keyboard and pointer users both get the "Available soon" tooltip.
 */
export function SoonButton({ children, ...props }: ButtonProps & { children: ReactNode }) {
  return (
    <Tooltip label="Available soon" events={{ hover: true, focus: true, touch: true }}>
      <Button {...props} data-disabled aria-disabled="true" onClick={(event) => event.preventDefault()}>
        {children}
      </Button>
    </Tooltip>
  );
}
