import {
  INVOICE_SORT_KEYS,
  INVOICE_STATUS_LABEL,
  INVOICE_STATUSES,
  type Invoice,
  type InvoiceSortKey,
  type InvoiceStatus,
} from '@allot/domain/invoices';
import { Alert, Container, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconInfoCircle } from '@tabler/icons-react';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { SearchInput } from '../../../components/search-input';
import { queryClient } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { usePagedList } from '../../../lib/use-paged-list';
import { useBillingQueue } from '../api/get-billing-queue';
import { fromBilling, invoicePath } from '../invoice-path';
import { FulfilInvoiceModal, type FulfilTarget } from './fulfil-invoice-modal';
import { InvoicesTable } from './invoices-table';
import { VoidInvoiceModal } from './void-invoice-modal';

const INITIAL_SORT: DataTableSortStatus<Invoice> = { columnAccessor: 'createdAt', direction: 'asc' };
const STATUS_PARAM = 'status';
type Shown = InvoiceStatus | 'all';
const SHOWN: Shown[] = [...INVOICE_STATUSES, 'all'];

/**
 * Billing (CONTRACT §7's billing queue, issue 33): the invoices of every organization for system admins, open
 * ones first and oldest first, fulfilled, paid another way, given free or voided from the list. The status is in
 * the URL (`?status=`), beside the list's own search, sort and page.
 */
export function BillingScreen() {
  useDocumentTitle('Billing · Allot');
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const wanted = params.get(STATUS_PARAM) as Shown | null;
  const status: Shown = wanted && SHOWN.includes(wanted) ? wanted : 'open';
  const list = usePagedList<Invoice, InvoiceSortKey>(INITIAL_SORT, { sortKeys: INVOICE_SORT_KEYS });
  const [fulfilling, setFulfilling] = useState<FulfilTarget | null>(null);
  const [voiding, setVoiding] = useState<Invoice | null>(null);
  const systemAdmin = session.role === 'system_admin';
  const { data, isPending, isError, error, refetch, isRefetching, isFetching } = useBillingQueue(
    { ...list.query, status },
    systemAdmin,
  );
  // A decision taken here moves the invoice out of the list it was in.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.invoices.billingQueue() });

  return (
    <Container size="lg" w="100%" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Billing
          </Title>
          <Text c="dimmed" size="sm">
            The invoices of every organization. Fulfil one when it is paid: the seats or credits it bought are
            added at once.
          </Text>
        </Stack>
        {!systemAdmin ? (
          <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
            Only a system admin sees every organization's invoices. An organization's own are on its Licenses
            screen.
          </Alert>
        ) : (
          <>
            <SegmentedControl
              aria-label="Invoices shown"
              value={status}
              onChange={(value) =>
                setParams((current) => {
                  const next = new URLSearchParams(current);
                  if (value === 'open') next.delete(STATUS_PARAM);
                  else next.set(STATUS_PARAM, value);
                  next.delete('page');
                  return next;
                })
              }
              data={SHOWN.map((s) => ({ value: s, label: s === 'all' ? 'All' : INVOICE_STATUS_LABEL[s] }))}
              maw={420}
              fullWidth
            />
            <SearchInput
              label="Search invoices"
              placeholder="Invoice number, email or PO number"
              maw={420}
              value={list.search}
              onChange={list.setSearch}
            />
            {isError && (
              <LoadError
                title="Invoices could not be loaded"
                error={error}
                onRetry={() => void refetch()}
                retrying={isRefetching}
              />
            )}
            <InvoicesTable
              showOrganization
              records={data?.data ?? []}
              totals={data?.pagination}
              page={list.table.page}
              pageSize={list.table.pageSize}
              onPageChange={list.table.onPageChange}
              sortStatus={list.table.sortStatus}
              onSortStatusChange={list.table.onSortStatusChange}
              fetching={isPending || (isFetching && !isRefetching)}
              pathOf={(invoice) => invoicePath(invoice.organizationId, invoice.id)}
              linkState={() => fromBilling(window.location.search)}
              onFulfil={(invoice, method) => setFulfilling({ invoice, method })}
              onVoid={setVoiding}
              noRecordsText={
                list.debounced === '' && status === 'open'
                  ? 'No open invoice: nothing is waiting to be paid.'
                  : undefined
              }
            />
          </>
        )}
      </Stack>
      <FulfilInvoiceModal
        target={fulfilling}
        onClose={() => {
          setFulfilling(null);
          refresh();
        }}
      />
      <VoidInvoiceModal
        invoice={voiding}
        onClose={() => {
          setVoiding(null);
          refresh();
        }}
      />
    </Container>
  );
}
