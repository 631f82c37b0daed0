import { Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * Where a section is left out for lack of a permission: one dimmed line saying whose it is, so that the
 * section is not silently missing (issue item 5: "sections hidden by permissions say why in one line").
 */
export function PermissionNote({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" component="section" aria-label={label}>
      <IconLock
        size={16}
        stroke={1.6}
        aria-hidden="true"
        style={{ flexShrink: 0, marginTop: 2 }}
        color="var(--mantine-color-dimmed)"
      />
      <Text size="sm" c="dimmed">
        {children}
      </Text>
    </Group>
  );
}
