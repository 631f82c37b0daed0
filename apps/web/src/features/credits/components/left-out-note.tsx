import { Text } from '@mantine/core';
import { plural } from '../forms/amount';

/** Selected people whose invitation is still pending hold no credits yet: the move leaves them out, and says so. */
export function LeftOutNote({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Text size="xs" c="dimmed">
      {plural(count, 'selected user')} with a pending invitation {count === 1 ? 'is' : 'are'} left out:
      credits move only for people who have joined.
    </Text>
  );
}
