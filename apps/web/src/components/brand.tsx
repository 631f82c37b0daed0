import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';

/**
 * The app name with its mark, used in both layouts' headers. `markOnlyOnPhone`: below Mantine's `xs` only the mark,
 * so a phone's header has room for the organization's name (the link around it is named "Allot home").
 */
export function Brand({ markOnlyOnPhone = false }: { markOnlyOnPhone?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={30} radius="md" variant="filled" aria-hidden="true">
        <IconCoins size={18} stroke={1.8} />
      </ThemeIcon>
      <Text fw={700} fz="lg" lh={1} visibleFrom={markOnlyOnPhone ? 'xs' : undefined}>
        Allot
      </Text>
    </Group>
  );
}
