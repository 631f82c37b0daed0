import { Group, Pagination, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { pagerControlProps } from './table-paging';

interface PagedSectionProps {
  page: number;
  /** Number of pages (lib/paging.ts knownPages for a server's list); the pager shows only when there is more than one. */
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
          <Pagination
            total={total}
            value={page}
            onChange={onChange}
            role="navigation"
            aria-label={label}
            getControlProps={pagerControlProps}
          />
        </Group>
      )}
    </Stack>
  );
}
