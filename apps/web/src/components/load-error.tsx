import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

interface LoadErrorProps {
  title: string;
  error: Error;
  onRetry: () => void;
  retrying: boolean;
}

/** A list or section that could not be loaded: the server's message and a way to try again. */
export function LoadError({ title, error, onRetry, retrying }: LoadErrorProps) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} title={title}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{error.message}</Text>
        <Button size="xs" variant="white" color="red" loading={retrying} onClick={onRetry}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}
