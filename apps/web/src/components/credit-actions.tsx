import { Button, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconArrowsExchange, IconCoins } from '@tabler/icons-react';

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
}

/** The credit moves of a selection toolbar: allocate, reclaim, transfer. */
export function CreditActions({
  disabled,
  canTransfer,
  transferHint,
  onAllocate,
  onReclaim,
  onTransfer,
}: CreditActionsProps) {
  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconCoins size={16} aria-hidden="true" />}
        disabled={disabled}
        onClick={onAllocate}
      >
        Allocate credits
      </Button>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconArrowBackUp size={16} aria-hidden="true" />}
        disabled={disabled}
        onClick={onReclaim}
      >
        Reclaim credits
      </Button>
      <Tooltip label={transferHint} disabled={canTransfer} events={{ hover: true, focus: true, touch: true }}>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconArrowsExchange size={16} aria-hidden="true" />}
          data-disabled={!canTransfer || undefined}
          aria-disabled={!canTransfer}
          onClick={(event) => {
            if (canTransfer) onTransfer();
            else event.preventDefault();
          }}
        >
          Transfer credits
        </Button>
      </Tooltip>
    </>
  );
}
