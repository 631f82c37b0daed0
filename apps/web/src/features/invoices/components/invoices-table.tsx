import 'mantine-datatable/styles.css';
import {
  FULFILMENT_LABEL,
  FULFILMENT_METHODS,
  type FulfilmentMethod,
  formatMoney,
  type Invoice,
} from '@allot/domain/invoices';
import { MSG } from '@allot/domain/messages';
import { ActionIcon, Button, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconFileInvoice } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { Link, useNavigate } from 'react-router';
import { BreakableEmail } from '../../../components/breakable-email';
import { emptyStateWhen, withSortButtons } from '../../../components/table-a11y';
import { DateCell } from '../../../components/table-cells';
import { tablePaging } from '../../../components/table-paging';
import { formatCount, formatDateLong, formatDay } from '../../../lib/format';
import type { ListTotals } from '../../../lib/paging';
import { invoiceLicenceLabel } from '../forms/invoice-texts';
import { DeletedOrganizationMark } from './deleted-organization-mark';
import { InvoiceStatusBadge } from './invoice-status-badge';
import classes from './invoices-table.module.css';

export interface InvoicesTableProps {
  records: Invoice[];
  /** The server's pagination of the page shown (its total, exact or capped, and whether a next page has rows). */
  totals: ListTotals | undefined;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  sortStatus: DataTableSortStatus<Invoice>;
  onSortStatusChange: (status: DataTableSortStatus<Invoice>) => void;
  fetching: boolean;
  /** Where an invoice's printable page is. */
  pathOf: (invoice: Invoice) => string;
  /**
   * Location state of a link to it, read when it is followed (the billing queue's address, for the page's way
   * back): a search just typed is in the address before the list has rendered it.
   */
  linkState?: () => unknown;
  /** System admins: the fulfilment options and Void of an open invoice. */
  onFulfil?: (invoice: Invoice, method: FulfilmentMethod) => void;
  onVoid?: (invoice: Invoice) => void;
  /** The text when there is no row (a search that found nothing). */
  noRecordsText?: string;
  /** The billing queue: every organization's invoices, so each row names its organization. */
  showOrganization?: boolean;
}

function CountCell({ value }: { value: number | null }) {
  return value === null ? (
    <Text size="sm" c="dimmed" aria-label="None">
      —
    </Text>
  ) : (
    <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatCount(value)}
    </Text>
  );
}

function Actions({
  invoice,
  pathOf,
  linkState,
  onFulfil,
  onVoid,
}: Pick<InvoicesTableProps, 'pathOf' | 'linkState' | 'onFulfil' | 'onVoid'> & { invoice: Invoice }) {
  const navigate = useNavigate();
  const follow = (event: React.MouseEvent) => {
    if (!linkState || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    void navigate(pathOf(invoice), { state: linkState() });
  };
  return (
    <Group gap={6} justify="flex-end" wrap="nowrap">
      <Tooltip label="Open the printable invoice">
        <ActionIcon
          component={Link}
          to={pathOf(invoice)}
          onClick={follow}
          variant="default"
          size={26}
          aria-label={`Open ${invoice.number}`}
        >
          <IconFileInvoice size={16} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      {invoice.status === 'fulfilled' ? (
        <Tooltip
          label={`${invoice.fulfilmentMethod ? FULFILMENT_LABEL[invoice.fulfilmentMethod] : 'Fulfilled'}${
            invoice.fulfilledAt ? `, ${formatDateLong(invoice.fulfilledAt)}` : ''
          }`}
          openDelay={250}
        >
          <Text size="sm" c="teal.9" fw={600} w={80} ta="center" tabIndex={0}>
            Fulfilled
          </Text>
        </Tooltip>
      ) : invoice.status === 'open' && (onFulfil || onVoid) ? (
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <Button
              size="compact-sm"
              w={80}
              rightSection={<IconChevronDown size={14} aria-hidden="true" />}
              aria-label={`Fulfil ${invoice.number}`}
            >
              Fulfil
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{invoice.number}</Menu.Label>
            {onFulfil &&
              FULFILMENT_METHODS.map((method) => (
                <Menu.Item key={method} onClick={() => onFulfil(invoice, method)}>
                  {FULFILMENT_LABEL[method]}
                </Menu.Item>
              ))}
            {onVoid && (
              <>
                <Menu.Divider />
                <Menu.Item color="red" onClick={() => onVoid(invoice)}>
                  Void
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      ) : (
        <Text w={80} aria-hidden="true" />
      )}
    </Group>
  );
}

/**
 * The invoices of an organization (spec §3's listing fields), paged, sorted and searched by the server; those of
 * deleted organizations that were below it are marked.
 */
export function InvoicesTable({
  pathOf,
  linkState,
  onFulfil,
  onVoid,
  noRecordsText = MSG.noSearchResults,
  showOrganization = false,
  ...state
}: InvoicesTableProps) {
  const organizationColumn: DataTableColumn<Invoice>[] = showOrganization
    ? [
        {
          accessor: 'organizationName',
          title: 'Organization',
          render: (invoice) => <Text size="sm">{invoice.organizationName}</Text>,
        },
      ]
    : [];
  const columns: DataTableColumn<Invoice>[] = [
    ...organizationColumn,
    {
      accessor: 'status',
      title: 'Status',
      sortable: true,
      width: 108,
      render: (invoice) => <InvoiceStatusBadge status={invoice.status} />,
    },
    {
      accessor: 'license',
      title: 'License',
      render: (invoice) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {invoiceLicenceLabel(invoice)}
          </Text>
          {/* A wide code may break the number after a hyphen rather than push the table sideways. */}
          <Text size="xs" c="dimmed">
            {invoice.number}
          </Text>
          {invoice.organizationDeleted && <DeletedOrganizationMark name={invoice.organizationName} />}
        </Stack>
      ),
    },
    {
      accessor: 'customerEmail',
      title: 'Customer email',
      width: 140,
      render: (invoice) => (
        <Text size="sm" style={{ overflowWrap: 'break-word' }}>
          <BreakableEmail email={invoice.customerEmail} />
        </Text>
      ),
    },
    {
      accessor: 'amount',
      title: 'Amount',
      sortable: true,
      textAlign: 'right',
      render: (invoice) => (
        <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          {formatMoney(invoice.amount, invoice.currency)}
        </Text>
      ),
    },
    {
      accessor: 'createdAt',
      title: 'Created at',
      sortable: true,
      render: (invoice) => <DateCell iso={invoice.createdAt} format={formatDay} />,
    },
    {
      accessor: 'dueDate',
      title: 'Due date',
      sortable: true,
      render: (invoice) => <DateCell iso={invoice.dueDate} format={formatDay} />,
    },
    {
      accessor: 'licenseExpirationDays',
      title: 'Licence expiration days',
      textAlign: 'right',
      width: 80,
      render: (invoice) => <CountCell value={invoice.licenseExpirationDays} />,
    },
    {
      accessor: 'extendUsersQuantity',
      title: 'Extend users quantity',
      textAlign: 'right',
      width: 74,
      render: (invoice) => <CountCell value={invoice.extendUsersQuantity} />,
    },
    {
      accessor: 'newUsersQuantity',
      title: 'New users quantity',
      textAlign: 'right',
      width: 74,
      render: (invoice) => <CountCell value={invoice.newUsersQuantity} />,
    },
    {
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      render: (invoice) => (
        <Actions
          invoice={invoice}
          pathOf={pathOf}
          linkState={linkState}
          onFulfil={onFulfil}
          onVoid={onVoid}
        />
      ),
    },
  ];

  return (
    <DataTable<Invoice>
      className={classes.table}
      aria-label="Invoices"
      withTableBorder
      borderRadius="md"
      highlightOnHover
      verticalSpacing="sm"
      horizontalSpacing="xs"
      minHeight={state.records.length === 0 ? 220 : undefined}
      records={state.records}
      columns={withSortButtons(columns, state.sortStatus, state.onSortStatusChange)}
      idAccessor="id"
      {...tablePaging({
        label: 'Invoices',
        totals: state.totals,
        page: state.page,
        pageSize: state.pageSize,
        onPageChange: state.onPageChange,
      })}
      fetching={state.fetching}
      {...emptyStateWhen(state.records.length === 0 && !state.fetching, noRecordsText)}
    />
  );
}
