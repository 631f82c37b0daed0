import { MSG } from '@allot/domain/messages';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { formatCount } from '../lib/format';

/** What a screen passes to a server-paged, sortable table with selectable rows. */
export interface PagedTableState<T> {
  records: T[];
  totalRecords: number;
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
 * The one look of the panel's lists (sub-organizations, users): bordered, "1–20 of 1,234" paging,
 * sorting and selection done by the server's pages, the spec's text when a search finds nothing.
 */
export function SelectablePagedTable<T extends { id: string; name: string }>({
  label,
  columns,
  ...state
}: PagedTableState<T> & { label: string; columns: DataTableColumn<T>[] }) {
  return (
    <DataTable<T>
      aria-label={label}
      withTableBorder
      borderRadius="md"
      highlightOnHover
      verticalSpacing="sm"
      minHeight={state.records.length === 0 ? 220 : undefined}
      records={state.records}
      columns={columns}
      idAccessor="id"
      totalRecords={state.totalRecords}
      recordsPerPage={state.pageSize}
      page={state.page}
      onPageChange={state.onPageChange}
      paginationText={({ from, to, totalRecords: total }) => `${from}–${to} of ${formatCount(total)}`}
      sortStatus={state.sortStatus}
      onSortStatusChange={state.onSortStatusChange}
      selectedRecords={state.selected}
      onSelectedRecordsChange={state.onSelectedChange}
      allRecordsSelectionCheckboxProps={{ 'aria-label': 'Select all on this page' }}
      getRecordSelectionCheckboxProps={(record) => ({ 'aria-label': `Select ${record.name}` })}
      fetching={state.fetching}
      noRecordsText={MSG.noSearchResults}
    />
  );
}
