import { Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface RequestSummaryProps {
  /** What sending the dialog does, in words; null while the amount is not a valid number yet. */
  children: ReactNode | null;
  /** Shown while there is nothing to sum up. */
  placeholder: string;
  /** Further lines: what the organizations hold afterwards. */
  after?: string[];
}

/**
 * What will happen when a request's dialog is sent, updated as the person types (read out when it changes):
 * the look of the credit dialogs' summary (features/credits MoveSummary), with its own placeholder.
 */
export function RequestSummary({ children, placeholder, after = [] }: RequestSummaryProps) {
  return (
    <Paper component="section" bg="gray.0" px="md" py="sm" withBorder aria-live="polite" aria-label="Summary">
      {children === null ? (
        <Text size="sm" c="dimmed">
          {placeholder}
        </Text>
      ) : (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {children}
          </Text>
          {after.map((line) => (
            <Text key={line} size="xs" c="dimmed">
              {line}
            </Text>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
