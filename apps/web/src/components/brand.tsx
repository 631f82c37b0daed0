import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';

/** The app name with its mark, used in both layouts' headers. */
export function Brand() {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={30} radius="md" variant="filled" aria-hidden="true">
        <IconCoins size={18} stroke={1.8} />
      </ThemeIcon>
      <Text fw={700} fz="lg" lh={1}>
        Allot
      </Text>
    </Group>
  );
}
