import { EmptyState, Paper, Stack, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';

interface ComingSoonPageProps {
  title: string;
  icon: ReactNode;
  description: string;
}

/** A dashboard screen whose content is not built yet: says so plainly, shows no invented data. */
export function ComingSoonPage({ title, icon, description }: ComingSoonPageProps) {
  useDocumentTitle(`${title} · Allot`);
  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        {title}
      </Title>
      <Paper withBorder p="xl">
        <EmptyState
          icon={icon}
          title="Arrives in a coming release"
          description={description}
          variant="light"
        />
      </Paper>
    </Stack>
  );
}
