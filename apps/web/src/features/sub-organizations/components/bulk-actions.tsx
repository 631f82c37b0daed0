import { Button, Group, Paper, Text } from '@mantine/core';
import { formatCount } from '../../../lib/format';

/**
 * What will act on the selected rows. The moves of credits and licences between organizations come with
 * the credits and licences features; until then the buttons are shown disabled, and say so.
 */
export function BulkActions({ selected, onClear }: { selected: number; onClear: () => void }) {
  return (
    <Paper withBorder px="md" py="sm" aria-label="Bulk actions" component="section">
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text size="sm" fw={600} aria-live="polite">
            {selected === 0 ? 'No organizations selected' : `${formatCount(selected)} selected`}
          </Text>
          {selected > 0 && (
            <Button size="compact-sm" variant="subtle" onClick={onClear}>
              Clear selection
            </Button>
          )}
        </Group>
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            Coming with the credits and licences features:
          </Text>
          <Button size="xs" variant="default" disabled>
            Allocate credits
          </Button>
          <Button size="xs" variant="default" disabled>
            Reclaim credits
          </Button>
          <Button size="xs" variant="default" disabled>
            Licences
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
