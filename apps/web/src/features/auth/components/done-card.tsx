import { Button, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuthCard } from './auth-card';

/** The last step of a flow from a mail: what happened, and the one way on (none where the flow ends here). */
export function DoneCard({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: { label: string; to: string };
}) {
  return (
    <AuthCard title={title}>
      <Stack gap="md">
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        {action && (
          <Button component={Link} to={action.to} fullWidth>
            {action.label}
          </Button>
        )}
      </Stack>
    </AuthCard>
  );
}
