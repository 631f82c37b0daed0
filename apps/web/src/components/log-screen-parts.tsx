import { Button, Card, EmptyState, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconFilterOff, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatCount, formatCountOf } from '../lib/format';
import { LoadError } from './load-error';

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

/** What a log screen's paged query gives the list below its filters. */
export interface LogQuery {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
  isRefetching: boolean;
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
  isFetchingNextPage: boolean;
}

/**
 * The list of a log screen (credit log, audit log): loading rows, the error of a first load, the empty state,
 * or the table with the error of a refresh above it and "Load more" below.
 */
export function LogEntries({
  name,
  query,
  shown,
  empty,
  table,
  one,
  many,
}: {
  /** "audit log", "credit log": in the loading label and the errors' titles. */
  name: string;
  query: LogQuery;
  shown: number;
  empty: { icon: ReactNode; title: string; description: string };
  table: ReactNode;
  one: string;
  many: string;
}) {
  const { isPending, isError, error, refetch, isRefetching, hasNextPage, fetchNextPage, isFetchingNextPage } =
    query;
  if (isPending) {
    return (
      <Card role="status" aria-busy="true" aria-label={`Loading the ${name}`}>
        <Stack gap="md">
          {[0, 1, 2, 3, 4].map((row) => (
            <Skeleton key={row} height={18} radius="sm" />
          ))}
        </Stack>
      </Card>
    );
  }
  if (isError && error && shown === 0) {
    return (
      <LoadError
        title={`The ${name} could not be loaded`}
        error={error}
        onRetry={() => void refetch()}
        retrying={isRefetching}
      />
    );
  }
  if (shown === 0) {
    return (
      <Card py="xl">
        <EmptyState {...empty} variant="light" />
      </Card>
    );
  }
  return (
    <Stack gap="sm">
      {isError && error && (
        <LoadError
          title={`The ${name} could not be refreshed`}
          error={error}
          onRetry={() => void (hasNextPage ? fetchNextPage() : refetch())}
          retrying={isRefetching || isFetchingNextPage}
        />
      )}
      <Card p={0}>{table}</Card>
      <LogMore
        shown={shown}
        hasNextPage={hasNextPage}
        onMore={() => void fetchNextPage()}
        loading={isFetchingNextPage}
        one={one}
        many={many}
      />
    </Stack>
  );
}

/** The button that clears a log's filters, beside them (aligned with the fields under their labels). */
export function ClearFiltersButton({ label, onClear }: { label: string; onClear: () => void }) {
  return (
    <Button
      variant="subtle"
      mt={25}
      leftSection={<IconFilterOff size={16} aria-hidden="true" />}
      onClick={onClear}
    >
      {label}
    </Button>
  );
}
