import { Button, Divider, Group, Paper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowBackUp, IconCertificate } from '@tabler/icons-react';
import { CreditActions } from '../../../components/credit-actions';
import { ReasonedButton } from '../../../components/reasoned-button';
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
 * What acts on the selected rows: allocate and reclaim credits for all of them, transfer from exactly one;
 * allocate and reclaim licence seats for all of them.
 */
export function BulkActions({ selected, onClear, credits, licences }: BulkActionsProps) {
  const none = selected === 0;
  const licenceReason = licences?.unavailable ?? (none ? 'Select the sub-organizations first' : undefined);
  // On a phone the greyed actions filled the first screen (issue 33): until a row is chosen, one line says
  // what choosing does.
  const phone = useMediaQuery('(max-width: 48em)');
  if (none && phone && (credits || licences)) {
    return (
      <Paper withBorder px="md" py="sm" aria-label="Bulk actions" component="section">
        <Text size="sm" c="dimmed" aria-live="polite">
          Select sub-organizations to move credits or licence seats.
        </Text>
      </Paper>
    );
  }
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
                size="xs"
                variant="default"
                leftSection={<IconCertificate size={16} aria-hidden="true" />}
                onClick={licences.onAllocate}
              >
                Allocate licences
              </ReasonedButton>
              <ReasonedButton
                reason={licenceReason}
                size="xs"
                variant="default"
                leftSection={<IconArrowBackUp size={16} aria-hidden="true" />}
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
