import { Card, Center, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface AuthCardProps {
  title: string;
  /** A small line above the title, e.g. "Step 1 of 2". */
  eyebrow?: string;
  description?: ReactNode;
  children: ReactNode;
}

/** The centred card of the signed-out screens: sign in, password reset, email verification. */
export function AuthCard({ title, eyebrow, description, children }: AuthCardProps) {
  return (
    <Center flex={1} p="md">
      <Card w="100%" maw={420} shadow="sm" padding="xl">
        <Stack gap="lg">
          <Stack gap={4}>
            {eyebrow && (
              <Text size="xs" fw={600} c="indigo.7" tt="uppercase" lts={0.5}>
                {eyebrow}
              </Text>
            )}
            <Title order={1} fz="h2">
              {title}
            </Title>
            {description && (
              <Text size="sm" c="dimmed">
                {description}
              </Text>
            )}
          </Stack>
          {children}
        </Stack>
      </Card>
    </Center>
  );
}
