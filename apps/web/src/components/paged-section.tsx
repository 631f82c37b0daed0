import { Group, Pagination, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

interface PagedSectionProps {
  page: number;
  /** Number of pages; the pager shows only when there is more than one. */
  total: number;
  onChange: (page: number) => void;
  label: string;
  children: ReactNode;
}

export function PagedSection({ page, total, onChange, label, children }: PagedSectionProps) {
  return (
    <Stack gap="md">
      {children}
      {total > 1 && (
        <Group justify="center">
          <Pagination total={total} value={page} onChange={onChange} aria-label={label} />
        </Group>
      )}
    </Stack>
  );
}
