import { MSG } from '@allot/domain/messages';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import type { ListTotals } from '../lib/paging';
import { emptyStateWhen, withSortButtons } from './table-a11y';
import { tablePaging } from './table-paging';

/** What a screen passes to a server-paged, sortable table with selectable rows. */
export interface PagedTableState<T> {
  records: T[];
  /** The server's pagination of the page shown (its total, exact or capped, and whether a next page has rows). */
  totals: ListTotals | undefined;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  sortStatus: DataTableSortStatus<T>;
  onSortStatusChange: (status: DataTableSortStatus<T>) => void;
  selected: T[];
  onSelectedChange: (selected: T[]) => void;
  fetching: boolean;
}

/**
 * The one look of the panel's lists (sub-organizations, users): bordered, "1–20 of 1,234" paging
 * ("1–20 of 1,000+" for a capped search, see table-paging.tsx), sorting and selection done by the server's
 * pages, the spec's text when a search finds nothing. Sortable headers are buttons and carry `aria-sort`;
 * the empty text is only in the page when the table is empty (table-a11y.tsx).
 */
export function SelectablePagedTable<T extends { id: string; name: string }>({
  label,
  columns,
  idAccessor = 'id',
  rowLabel = (record) => record.name,
  ...state
}: PagedTableState<T> & {
  label: string;
  columns: DataTableColumn<T>[];
  /** What tells rows (and selected rows) apart; a row's `id` unless one record can show twice. */
  idAccessor?: 'id' | ((record: T) => string);
  /** Who a row is, for its check box ("Select …"): its name unless that is not enough to tell rows apart. */
  rowLabel?: (record: T) => string;
}) {
  return (
    <DataTable<T>
      aria-label={label}
      withTableBorder
      borderRadius="md"
      highlightOnHover
      verticalSpacing="sm"
      minHeight={state.records.length === 0 ? 220 : undefined}
      records={state.records}
      columns={withSortButtons(columns, state.sortStatus, state.onSortStatusChange)}
      idAccessor={idAccessor}
      // Scrolled sideways (a phone), the row's name and its actions stay in view (decision 020).
      pinFirstColumn
      pinLastColumn={columns.at(-1)?.accessor === 'actions'}
      {...tablePaging({
        label,
        totals: state.totals,
        page: state.page,
        pageSize: state.pageSize,
        onPageChange: state.onPageChange,
      })}
      selectedRecords={state.selected}
      // 24 px check boxes: the smallest touch target WCAG 2.2 asks for (issue 33; Mantine's default is 20).
      selectionCheckboxProps={{ size: 'md' }}
      onSelectedRecordsChange={state.onSelectedChange}
      allRecordsSelectionCheckboxProps={{ 'aria-label': 'Select all on this page' }}
      getRecordSelectionCheckboxProps={(record) => ({ 'aria-label': `Select ${rowLabel(record)}` })}
      fetching={state.fetching}
      {...emptyStateWhen(state.records.length === 0 && !state.fetching, MSG.noSearchResults)}
    />
  );
}
