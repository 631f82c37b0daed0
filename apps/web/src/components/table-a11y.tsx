import { Group, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import type { DataTableColumn, DataTableSortStatus } from 'mantine-datatable';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { nextSort } from '../lib/list-params';

type Direction = DataTableSortStatus<unknown>['direction'];

/**
 * A sortable column's title: a button inside the column header, and the header says how the table is sorted
 * (`aria-sort`: ascending or descending on the sorted column, none on the other sortable ones).
 *
 * mantine-datatable makes a sortable header cell itself a `role="button"`, which takes its column-header
 * role away and leaves no place for `aria-sort`; so the tables pass it plain columns and this button.
 */
function SortButton({
  title,
  direction,
  textAlign,
  onSort,
}: {
  title: ReactNode;
  direction: Direction | undefined;
  textAlign: 'left' | 'center' | 'right' | undefined;
  onSort: () => void;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const header = ref.current?.closest('th');
    header?.setAttribute(
      'aria-sort',
      direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none',
    );
  });
  const Icon = direction === 'asc' ? IconArrowUp : direction === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton
      ref={ref}
      onClick={onSort}
      fw="inherit"
      fz="inherit"
      w="100%"
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
    >
      <Group
        component="span"
        gap={4}
        wrap="nowrap"
        justify={textAlign === 'right' ? 'flex-end' : textAlign === 'center' ? 'center' : 'flex-start'}
      >
        <span>{title}</span>
        <Icon
          size={14}
          stroke={1.8}
          aria-hidden="true"
          style={{ flexShrink: 0, opacity: direction ? 1 : 0.55 }}
        />
      </Group>
    </UnstyledButton>
  );
}

/**
 * The columns with a sort button in each sortable column's header (see SortButton). Clicking the sorted
 * column turns its direction round; another column starts ascending. Pass the result to the DataTable
 * without `sortStatus`: the buttons show the order.
 */
export function withSortButtons<T>(
  columns: DataTableColumn<T>[],
  sortStatus: DataTableSortStatus<T>,
  onSortStatusChange: (status: DataTableSortStatus<T>) => void,
): DataTableColumn<T>[] {
  return columns.map((column) => {
    if (!column.sortable) return column;
    const direction = sortStatus.columnAccessor === column.accessor ? sortStatus.direction : undefined;
    return {
      ...column,
      sortable: false,
      title: (
        <SortButton
          title={column.title ?? String(column.accessor)}
          direction={direction}
          textAlign={column.textAlign}
          onSort={() => onSortStatusChange(nextSort(sortStatus, column.accessor))}
        />
      ),
    };
  });
}

/**
 * The empty state of a DataTable only when the table is empty: mantine-datatable keeps its "no records"
 * text in the page under every table and only fades it out, so a screen reader read it under tables
 * with rows.
 */
export function emptyStateWhen(empty: boolean, text: string) {
  return empty ? { noRecordsText: text } : { emptyState: <></>, noRecordsText: '' };
}
