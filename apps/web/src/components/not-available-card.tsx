import { Anchor, Card, Center, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router';

interface NotAvailableCardProps {
  title: string;
  description: string;
}

/** A public screen that a later release builds: an honest card, no form that does nothing. */
export function NotAvailableCard({ title, description }: NotAvailableCardProps) {
  useDocumentTitle(`${title} · Allot`);
  return (
    <Center flex={1} p="md">
      <Card w="100%" maw={420} shadow="sm" padding="xl">
        <Stack gap="sm">
          <Title order={1} fz="h3">
            {title}
          </Title>
          <Text fw={500}>This screen is not available yet.</Text>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
          <Anchor component={Link} to="/login" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      </Card>
    </Center>
  );
}
