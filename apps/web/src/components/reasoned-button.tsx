import { ActionIcon, Button, type ButtonProps, Tooltip, VisuallyHidden } from '@mantine/core';
import { type MouseEvent, type ReactNode, useId } from 'react';

/** Greyed out, still focusable, and saying why: in a tooltip on hover, focus and touch. */
function ReasonTooltip({ reason, children }: { reason: string | undefined; children: ReactNode }) {
  return (
    <Tooltip
      label={reason}
      disabled={!reason}
      multiline
      maw={280}
      events={{ hover: true, focus: true, touch: true }}
    >
      {children}
    </Tooltip>
  );
}

/**
 * What makes a control unusable but still focusable, with its reason read out: aria-disabled, never
 * `disabled` (which would hide both the tooltip and the description), and a click that does nothing.
 */
function useReasonedControl(reason: string | undefined, onClick: () => void) {
  const id = useId();
  return {
    control: {
      'data-disabled': reason ? true : undefined,
      'aria-disabled': Boolean(reason),
      'aria-describedby': reason ? id : undefined,
      onClick: (event: MouseEvent) => {
        if (reason) event.preventDefault();
        else onClick();
      },
    },
    description: reason && <VisuallyHidden id={id}>{reason}</VisuallyHidden>,
  };
}

interface ReasonedButtonProps extends Omit<ButtonProps, 'disabled'> {
  /** Why the action cannot be used now; undefined when it can. */
  reason: string | undefined;
  onClick: () => void;
  children: ReactNode;
}

/** A button that stays focusable when it cannot be used, and says why: in a tooltip on hover and focus. */
export function ReasonedButton({ reason, onClick, children, ...props }: ReasonedButtonProps) {
  const { control, description } = useReasonedControl(reason, onClick);
  return (
    <>
      <ReasonTooltip reason={reason}>
        <Button {...props} {...control}>
          {children}
        </Button>
      </ReasonTooltip>
      {description}
    </>
  );
}

interface ReasonedActionIconProps {
  /** The accessible name, e.g. "Delete Northside Elementary". */
  label: string;
  /** The tooltip while usable, e.g. "Delete". */
  tooltip: string;
  /** Why the action cannot be used now; undefined when it can. */
  reason: string | undefined;
  color?: string;
  onClick: () => void;
  children: ReactNode;
}

/** The icon-only form of ReasonedButton, for table rows: the tooltip gives the reason instead of the name. */
export function ReasonedActionIcon({
  label,
  tooltip,
  reason,
  color,
  onClick,
  children,
}: ReasonedActionIconProps) {
  const { control, description } = useReasonedControl(reason, onClick);
  return (
    <>
      <Tooltip
        label={reason ?? tooltip}
        multiline={Boolean(reason)}
        maw={280}
        events={{ hover: true, focus: true, touch: true }}
      >
        {/* 34 px: a touch target of at least 24 px (WCAG 2.2, issue 33). */}
        <ActionIcon variant="subtle" color={color} size="lg" aria-label={label} {...control}>
          {children}
        </ActionIcon>
      </Tooltip>
      {description}
    </>
  );
}
