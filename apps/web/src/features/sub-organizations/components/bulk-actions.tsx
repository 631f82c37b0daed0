import { Button, Group, Paper, Text } from '@mantine/core';
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
}

/**
 * What acts on the selected rows: allocate and reclaim credits for all of them, transfer from exactly one.
 * The moves of licences come with the licences feature; until then that button is shown disabled, and says so.
 */
export function BulkActions({ selected, onClear, credits }: BulkActionsProps) {
  const none = selected === 0;
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
          <Text size="xs" c="dimmed" ml="xs">
            Coming with the licences feature:
          </Text>
          <Button size="xs" variant="default" disabled>
            Licences
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
