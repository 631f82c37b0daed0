import { Button, Divider, Group, Paper, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconArrowBackUp, IconCertificate } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { CreditActions } from '../../../components/credit-actions';
import { formatCount } from '../../../lib/format';

interface BulkActionsProps {
  selected: number;
  onClear: () => void;
  /** The credit moves; absent without transfer_org_credits. */
  credits?: {
    onAllocate: () => void;
    onReclaim: () => void;
    /** From the one selected sub-organization to the parent or another sub-organization. */
    onTransfer: () => void;
  };
  /** The licence moves; absent without manage_org_license. */
  licences?: {
    onAllocate: () => void;
    onReclaim: () => void;
    /** Why neither can be used whatever is selected (the organization holds no licence); else undefined. */
    unavailable?: string;
  };
}

/**
 * A button that stays focusable when it cannot be used, and says why: in a tooltip on hover and focus, and
 * to a screen reader through its description.
 */
function ReasonedButton({
  reason,
  icon,
  onClick,
  children,
}: {
  reason: string | undefined;
  icon: ReactNode;
  onClick: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <>
      <Tooltip label={reason} disabled={!reason} events={{ hover: true, focus: true, touch: true }}>
        <Button
          size="xs"
          variant="default"
          leftSection={icon}
          data-disabled={reason ? true : undefined}
          aria-disabled={Boolean(reason)}
          aria-describedby={reason ? id : undefined}
          onClick={(event) => {
            if (reason) event.preventDefault();
            else onClick();
          }}
        >
          {children}
        </Button>
      </Tooltip>
      {reason && <VisuallyHidden id={id}>{reason}</VisuallyHidden>}
    </>
  );
}

/**
 * What acts on the selected rows: allocate and reclaim credits for all of them, transfer from exactly one;
 * allocate and reclaim licence seats for all of them.
 */
export function BulkActions({ selected, onClear, credits, licences }: BulkActionsProps) {
  const none = selected === 0;
  const licenceReason = licences?.unavailable ?? (none ? 'Select the sub-organizations first' : undefined);
  return (
    <Paper withBorder px="md" py="sm" aria-label="Bulk actions" component="section">
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text size="sm" fw={600} aria-live="polite">
            {none ? 'No organizations selected' : `${formatCount(selected)} selected`}
          </Text>
          {!none && (
            <Button size="compact-sm" variant="subtle" onClick={onClear}>
              Clear selection
            </Button>
          )}
        </Group>
        <Group gap="xs">
          {credits && (
            <CreditActions
              disabled={none}
              canTransfer={selected === 1}
              transferHint="Select one sub-organization to transfer from"
              onAllocate={credits.onAllocate}
              onReclaim={credits.onReclaim}
              onTransfer={credits.onTransfer}
            />
          )}
          {credits && licences && <Divider orientation="vertical" mx={4} />}
          {licences && (
            <>
              <ReasonedButton
                reason={licenceReason}
                icon={<IconCertificate size={16} aria-hidden="true" />}
                onClick={licences.onAllocate}
              >
                Allocate licences
              </ReasonedButton>
              <ReasonedButton
                reason={licenceReason}
                icon={<IconArrowBackUp size={16} aria-hidden="true" />}
                onClick={licences.onReclaim}
              >
                Reclaim licences
              </ReasonedButton>
            </>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
