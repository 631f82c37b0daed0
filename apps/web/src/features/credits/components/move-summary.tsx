import { Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface MoveSummaryProps {
  /** What the move does, in words; null while the amount is not a valid number yet. */
  children: ReactNode | null;
  /** A second line: the balances the move leaves. */
  after?: ReactNode;
}

/** What will happen when the dialog is sent, updated as the person types (read out when it changes). */
export function MoveSummary({ children, after }: MoveSummaryProps) {
  return (
    <Paper bg="gray.0" px="md" py="sm" withBorder aria-live="polite" aria-label="Summary">
      {children === null ? (
        <Text size="sm" c="dimmed">
          Enter the credits to see what moves.
        </Text>
      ) : (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {children}
          </Text>
          {after && (
            <Text size="xs" c="dimmed">
              {after}
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
}
