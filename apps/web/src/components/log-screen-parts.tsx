import { Button, Card, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconLock } from '@tabler/icons-react';
import { formatCount, formatCountOf } from '../lib/format';

/** The heading of a log screen (credit log, audit log): its title, what it lists, and "Export CSV". */
export function LogHeading({
  title,
  description,
  exportable,
  onExport,
  exporting,
  exportDisabled,
}: {
  title: string;
  description: string;
  exportable: boolean;
  onExport: () => void;
  exporting: boolean;
  exportDisabled: boolean;
}) {
  return (
    <Group justify="space-between" align="flex-end">
      <Stack gap={4}>
        <Title order={1} fz="h2">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      </Stack>
      {exportable && (
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          onClick={onExport}
          loading={exporting}
          disabled={exportDisabled}
        >
          Export CSV
        </Button>
      )}
    </Group>
  );
}

/** A log screen for someone without `view_audit_logs` there. */
export function LogNoAccess({ heading, description }: { heading: React.ReactNode; description: string }) {
  return (
    <Stack gap="lg">
      {heading}
      <Card py="xl">
        <EmptyState icon={<IconLock />} title="No access" description={description} variant="light" />
      </Card>
    </Stack>
  );
}

/** Under a log's table: how much of it is shown, and "Load more" while the cursor has another page. */
export function LogMore({
  shown,
  hasNextPage,
  onMore,
  loading,
  one,
  many,
}: {
  shown: number;
  hasNextPage: boolean;
  onMore: () => void;
  loading: boolean;
  one: string;
  many: string;
}) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" aria-live="polite">
        {hasNextPage
          ? `Showing the latest ${formatCount(shown)} ${many}`
          : `All ${formatCountOf(shown, one, many)} shown`}
      </Text>
      {hasNextPage && (
        <Button variant="default" onClick={onMore} loading={loading}>
          Load more
        </Button>
      )}
    </Group>
  );
}
