import { INVOICE_SORT_KEYS, type Invoice, type InvoiceSortKey } from '@allot/domain/invoices';
import { LICENSE_TYPES, type License } from '@allot/domain/organizations';
import { Button, Card, EmptyState, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { IconCertificate, IconFileInvoice, IconPlus, IconShoppingCart } from '@tabler/icons-react';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { LoadError } from '../../components/load-error';
import { SearchInput } from '../../components/search-input';
import { useInvoices } from '../../features/invoices/api/get-invoices';
import {
  FulfilInvoiceModal,
  type FulfilTarget,
} from '../../features/invoices/components/fulfil-invoice-modal';
import { InvoicesTable } from '../../features/invoices/components/invoices-table';
import {
  LicenceInvoiceModal,
  type LicenceInvoiceTarget,
} from '../../features/invoices/components/licence-invoice-modal';
import { VoidInvoiceModal } from '../../features/invoices/components/void-invoice-modal';
import { invoicePath } from '../../features/invoices/invoice-path';
import { CreateLicenceModal } from '../../features/licenses/components/create-licence-modal';
import { DeleteLicenceModal } from '../../features/licenses/components/delete-licence-modal';
import { EditLicenceModal } from '../../features/licenses/components/edit-licence-modal';
import { type LicenceActions, LicenceCard } from '../../features/licenses/components/licence-card';
import { SeatUseSection } from '../../features/licenses/components/seat-use-section';
import { useCurrentOrganization } from '../../features/organizations/api/use-current-organization';
import { useOrganizationPermissions } from '../../features/organizations/hooks/use-organization-permissions';
import { usePagedList } from '../../lib/use-paged-list';

/** Newest first (docs/decisions/011-licences-screen.md): the invoice just created is on top. */
const INITIAL_SORT: DataTableSortStatus<Invoice> = { columnAccessor: 'createdAt', direction: 'desc' };

/**
 * Licenses (spec §2): usage of each licence with extend / add more (invoices), create new licence, edit and
 * delete (system admins), and the organization's invoices with the fulfilment options below.
 */
export function LicensesScreen() {
  const organization = useCurrentOrganization();
  useDocumentTitle(`Licenses · ${organization.name} · Allot`);
  const { can, role } = useOrganizationPermissions(organization);
  const isSystemAdmin = role === 'system_admin';
  const mayBuy = can('manage_org_license');
  const licenses = organization.licenses;
  const held = new Set(licenses?.map((l) => l.licenseType));
  const missingTypes = LICENSE_TYPES.filter((type) => !held.has(type));

  const [invoiceTarget, setInvoiceTarget] = useState<LicenceInvoiceTarget | null>(null);
  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const [editing, setEditing] = useState<License | null>(null);
  const [deleting, setDeleting] = useState<License | null>(null);
  const [fulfilling, setFulfilling] = useState<FulfilTarget | null>(null);
  const [voiding, setVoiding] = useState<Invoice | null>(null);
  const now = new Date();

  const actions: LicenceActions = {
    onExtend: mayBuy ? (license) => setInvoiceTarget({ kind: 'extend_license', license }) : undefined,
    onAddMore: mayBuy ? (license) => setInvoiceTarget({ kind: 'add_users', license }) : undefined,
    onEdit: isSystemAdmin ? setEditing : undefined,
    onDelete: isSystemAdmin ? setDeleting : undefined,
  };

  const buyButton = mayBuy && missingTypes.length > 0 && (
    <Button
      leftSection={<IconShoppingCart size={16} aria-hidden="true" />}
      onClick={() => setInvoiceTarget({ kind: 'new_license', types: missingTypes })}
    >
      Buy a licence
    </Button>
  );
  const createButton = isSystemAdmin && missingTypes.length > 0 && (
    <Button variant="default" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={openCreate}>
      Create new licence
    </Button>
  );

  return (
    <Stack gap="xl">
      <Title order={1} fz="h2">
        Licenses
      </Title>

      <Stack gap="sm" component="section" aria-labelledby="usage-heading">
        <Group justify="space-between" align="center">
          <Title order={2} fz="h4" id="usage-heading">
            Licence usage
          </Title>
          {licenses && licenses.length > 0 && (
            <Group gap="sm">
              {createButton}
              {buyButton}
            </Group>
          )}
        </Group>
        {!licenses ? (
          <Text c="dimmed">The licences of this organization could not be loaded.</Text>
        ) : licenses.length === 0 ? (
          <Card py="xl">
            <EmptyState
              icon={<IconCertificate />}
              title="No licences yet"
              description={
                mayBuy
                  ? `${organization.name} holds no licence. Buy one: an invoice is created, and once it is paid a system admin adds the seats here.`
                  : `${organization.name} holds no licence. Ask the organization's owner or a system admin for one.`
              }
              variant="light"
            >
              {(buyButton || createButton) && (
                <Group mt="md" justify="center">
                  {createButton}
                  {buyButton}
                </Group>
              )}
            </EmptyState>
          </Card>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            {licenses.map((license) => (
              <LicenceCard key={license.id} license={license} now={now} actions={actions} />
            ))}
          </SimpleGrid>
        )}
      </Stack>

      {can('view_audit_logs') && licenses && licenses.length > 0 && (
        <SeatUseSection organization={{ id: organization.id, name: organization.name }} />
      )}

      {mayBuy && (
        <InvoicesSection
          organizationId={organization.id}
          onFulfil={isSystemAdmin ? (invoice, method) => setFulfilling({ invoice, method }) : undefined}
          onVoid={isSystemAdmin ? setVoiding : undefined}
        />
      )}

      <LicenceInvoiceModal
        target={invoiceTarget}
        organization={organization}
        onClose={() => setInvoiceTarget(null)}
      />
      <CreateLicenceModal
        opened={creating}
        onClose={closeCreate}
        organization={organization}
        types={missingTypes}
      />
      <EditLicenceModal
        license={editing}
        organizationName={organization.name}
        onClose={() => setEditing(null)}
      />
      <DeleteLicenceModal
        license={deleting}
        organizationName={organization.name}
        onClose={() => setDeleting(null)}
      />
      <FulfilInvoiceModal target={fulfilling} onClose={() => setFulfilling(null)} />
      <VoidInvoiceModal invoice={voiding} onClose={() => setVoiding(null)} />
    </Stack>
  );
}

function InvoicesSection({
  organizationId,
  onFulfil,
  onVoid,
}: {
  organizationId: string;
  onFulfil?: (invoice: Invoice, method: FulfilTarget['method']) => void;
  onVoid?: (invoice: Invoice) => void;
}) {
  const list = usePagedList<Invoice, InvoiceSortKey>(INITIAL_SORT, { sortKeys: INVOICE_SORT_KEYS });
  const { data, isPending, isError, error, refetch, isRefetching, isFetching } = useInvoices(
    organizationId,
    list.query,
  );
  const nothingYet = data !== undefined && data.pagination.total === 0 && list.debounced === '';

  return (
    <Stack gap="sm" component="section" aria-labelledby="invoices-heading">
      <Title order={2} fz="h4" id="invoices-heading">
        Invoices
      </Title>
      {isError && !data ? (
        <LoadError
          title="Invoices could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : nothingYet ? (
        <Card py="xl">
          <EmptyState
            icon={<IconFileInvoice />}
            title="No invoices yet"
            description="Invoices appear here when someone buys a licence, extends one, adds seats or buys credits."
            variant="light"
          />
        </Card>
      ) : (
        <>
          <SearchInput
            label="Search invoices"
            placeholder="Invoice number, email or PO number"
            maw={420}
            value={list.search}
            onChange={list.setSearch}
          />
          {isError && (
            <LoadError
              title="Invoices could not be refreshed"
              error={error}
              onRetry={() => void refetch()}
              retrying={isRefetching}
            />
          )}
          <InvoicesTable
            records={data?.data ?? []}
            totals={data?.pagination}
            page={list.table.page}
            pageSize={list.table.pageSize}
            onPageChange={list.table.onPageChange}
            sortStatus={list.table.sortStatus}
            onSortStatusChange={list.table.onSortStatusChange}
            fetching={isPending || (isFetching && !isRefetching)}
            // A deleted organization has no pages of its own: its invoices open under this one.
            pathOf={(invoice) =>
              invoicePath(invoice.organizationDeleted ? organizationId : invoice.organizationId, invoice.id)
            }
            onFulfil={onFulfil}
            onVoid={onVoid}
          />
        </>
      )}
    </Stack>
  );
}
