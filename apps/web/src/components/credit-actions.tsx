import { Button, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconArrowsExchange, IconCoins } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ReasonedButton } from './reasoned-button';

interface CreditActionsProps {
  /** Allocate and reclaim greyed out: nothing selected that can hold credits. */
  disabled: boolean;
  /** Whether the selection fits a transfer; if not, the button stays focusable and says why. */
  canTransfer: boolean;
  /** Why a transfer does not fit the selection, shown on the greyed-out button. */
  transferHint: string;
  onAllocate: () => void;
  onReclaim: () => void;
  onTransfer: () => void;
  /**
   * Why none of the moves fits the selection although something is selected (people of several organizations
   * in the list of everyone below): the buttons stay focusable and say it.
   */
  blocked?: string;
}

/** Allocate or reclaim: disabled while nothing is selected, else greyed with the reason it is blocked. */
function MoveButton(props: {
  disabled: boolean;
  blocked: string | undefined;
  icon: ReactNode;
  onClick: () => void;
  children: string;
}) {
  if (props.disabled) {
    return (
      <Button size="xs" variant="default" leftSection={props.icon} disabled>
        {props.children}
      </Button>
    );
  }
  return (
    <ReasonedButton
      size="xs"
      variant="default"
      leftSection={props.icon}
      reason={props.blocked}
      onClick={props.onClick}
    >
      {props.children}
    </ReasonedButton>
  );
}

/** The credit moves of a selection toolbar: allocate, reclaim, transfer. */
export function CreditActions({
  disabled,
  canTransfer,
  transferHint,
  onAllocate,
  onReclaim,
  onTransfer,
  blocked,
}: CreditActionsProps) {
  const transferable = canTransfer && !blocked;
  return (
    <>
      <MoveButton
        disabled={disabled}
        blocked={blocked}
        icon={<IconCoins size={16} aria-hidden="true" />}
        onClick={onAllocate}
      >
        Allocate credits
      </MoveButton>
      <MoveButton
        disabled={disabled}
        blocked={blocked}
        icon={<IconArrowBackUp size={16} aria-hidden="true" />}
        onClick={onReclaim}
      >
        Reclaim credits
      </MoveButton>
      <Tooltip
        label={blocked && !disabled ? blocked : transferHint}
        disabled={transferable}
        multiline
        maw={280}
        events={{ hover: true, focus: true, touch: true }}
      >
        <Button
          size="xs"
          variant="default"
          leftSection={<IconArrowsExchange size={16} aria-hidden="true" />}
          data-disabled={!transferable || undefined}
          aria-disabled={!transferable}
          onClick={(event) => {
            if (transferable) onTransfer();
            else event.preventDefault();
          }}
        >
          Transfer credits
        </Button>
      </Tooltip>
    </>
  );
}
