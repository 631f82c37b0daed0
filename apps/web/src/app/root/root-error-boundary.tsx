import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { isApiError } from '../../lib/api-error';

/** Last resort: something failed outside a screen's own error handling. It is shown, never only logged. */
export function RootErrorBoundary() {
  const error = useRouteError();
  const message = isApiError(error)
    ? error.message
    : isRouteErrorResponse(error)
      ? `${error.status} ${error.statusText}`
      : 'Something went wrong, please try again later.';
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" maw={480}>
        <Title order={2}>This page could not be shown</Title>
        <Text c="dimmed" ta="center">
          {message}
        </Text>
        <Group>
          <Button onClick={() => window.location.reload()}>Try again</Button>
          <Button variant="default" component={Link} to="/" reloadDocument>
            Go home
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
