import type { DataTablePaginationRenderContext } from 'mantine-datatable';
import { knownPages, type ListTotals, rangeText } from '../lib/paging';

const CONTROL_LABEL = {
  first: 'First page',
  last: 'Last page',
  previous: 'Previous page',
  next: 'Next page',
} as const;

/** The names of a pager's arrows, for screen readers (Mantine leaves them unnamed). */
export const pagerControlProps = (control: keyof typeof CONTROL_LABEL) => ({
  'aria-label': CONTROL_LABEL[control],
});

/**
 * The footer of every server-paged table (sub-organizations, users, invoices): "1–20 of 1,234" and the
 * pager. A capped total (a search with more than 1,000 matches) reads "1–20 of 1,000+", and the pager
 * goes on past its 50 pages while the server says there is a next page (lib/paging.ts). The pager is a
 * navigation landmark named after the table; its arrows are named "Previous page" and "Next page".
 *
 * Spread into a mantine-datatable `DataTable`: it keeps the table's own footer and its look, and only
 * tells it how many pages there are.
 */
export function tablePaging({
  label,
  totals,
  page,
  pageSize,
  onPageChange,
}: {
  /** The table's name: the pager is "`label` pages". */
  label: string;
  /** The server's pagination of the page shown; undefined before the first answer. */
  totals: ListTotals | undefined;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
}) {
  return {
    page,
    onPageChange,
    totalRecords: totals?.total ?? 0,
    recordsPerPage: pageSize,
    paginationText: ({ from, to }: { from: number; to: number }) =>
      totals ? rangeText(from, to, totals) : '',
    getPaginationControlProps: pagerControlProps,
    renderPagination: ({ Controls }: DataTablePaginationRenderContext) => (
      <>
        <Controls.Text />
        <Controls.Pagination
          role="navigation"
          aria-label={`${label} pages`}
          {...(totals ? { total: knownPages(totals) } : {})}
        />
      </>
    ),
  };
}
