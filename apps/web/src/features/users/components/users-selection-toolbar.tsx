import { Button, Group, Paper, Text } from '@mantine/core';
import { IconCertificate, IconUserMinus } from '@tabler/icons-react';
import { formatCount } from '../../../lib/format';

interface UsersSelectionToolbarProps {
  selected: number;
  onClear: () => void;
  /** Absent when the organization has no licence to move users onto. */
  onChangeLicence?: () => void;
  onRemove: () => void;
}

/** What acts on the selected rows. The credit moves (allocate, reclaim, transfer) join this group later. */
export function UsersSelectionToolbar({
  selected,
  onClear,
  onChangeLicence,
  onRemove,
}: UsersSelectionToolbarProps) {
  const none = selected === 0;
  return (
    <Paper withBorder px="md" py="sm" aria-label="Selected users" component="section">
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text size="sm" fw={600} aria-live="polite">
            {none ? 'No users selected' : `${formatCount(selected)} selected`}
          </Text>
          {!none && (
            <Button size="compact-sm" variant="subtle" onClick={onClear}>
              Clear selection
            </Button>
          )}
        </Group>
        <Group gap="xs">
          {onChangeLicence && (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconCertificate size={16} aria-hidden="true" />}
              disabled={none}
              onClick={onChangeLicence}
            >
              Change licence
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            color="red"
            leftSection={<IconUserMinus size={16} aria-hidden="true" />}
            disabled={none}
            onClick={onRemove}
          >
            Remove
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
