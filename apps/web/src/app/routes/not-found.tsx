import { Button, EmptyState } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconMapOff } from '@tabler/icons-react';
import { Link } from 'react-router';

export function NotFoundRoute() {
  useDocumentTitle('Page not found · Allot');
  return (
    <EmptyState
      py="xl"
      icon={<IconMapOff />}
      title="Page not found"
      description="There is no page at this address."
    >
      <Button component={Link} to="/" mt="md">
        Go home
      </Button>
    </EmptyState>
  );
}
