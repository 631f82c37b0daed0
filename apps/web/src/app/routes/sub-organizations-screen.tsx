import 'mantine-datatable/styles.css';
import {
  type OrganizationSummary,
  SUB_ORGANIZATION_SORT_KEYS,
  type SubOrganizationSortKey,
} from '@allot/domain/organizations';
import { Button, Card, EmptyState, Group, Stack, Title } from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { IconBuildingCommunity, IconPlus } from '@tabler/icons-react';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { LoadError } from '../../components/load-error';
import { SearchInput } from '../../components/search-input';
import { AllocateOrganizationsModal } from '../../features/credits/components/allocate-organizations-modal';
import { ReclaimOrganizationsModal } from '../../features/credits/components/reclaim-organizations-modal';
import { TransferOrganizationModal } from '../../features/credits/components/transfer-organization-modal';
import { AllocateLicencesModal } from '../../features/license-moves/components/allocate-licences-modal';
import { ReclaimLicencesModal } from '../../features/license-moves/components/reclaim-licences-modal';
import { useCurrentOrganization } from '../../features/organizations/api/use-current-organization';
import { CreateOrganizationModal } from '../../features/organizations/components/create-organization-modal';
import { DeleteOrganizationModal } from '../../features/organizations/components/delete-organization-modal';
import {
  type EditableOrganization,
  EditOrganizationModal,
} from '../../features/organizations/components/edit-organization-modal';
import { useOrganizationPermissions } from '../../features/organizations/hooks/use-organization-permissions';
import { useSubOrganizations } from '../../features/sub-organizations/api/get-sub-organizations';
import { BulkActions } from '../../features/sub-organizations/components/bulk-actions';
import { SubOrganizationsTable } from '../../features/sub-organizations/components/sub-organizations-table';
import { SEARCH_HINT } from '../../lib/search-hints';
import { usePagedList } from '../../lib/use-paged-list';

const NO_CREDITS = { shared: 0, protected: 0 };
const NO_LICENCES: never[] = [];
const INITIAL_SORT: DataTableSortStatus<OrganizationSummary> = { columnAccessor: 'name', direction: 'asc' };

/** Sub organizations (spec §2): the direct children of the current organization. */
export function SubOrganizationsScreen() {
  const organization = useCurrentOrganization();
  useDocumentTitle(`Sub organizations · ${organization.name} · Allot`);
  const { can, role } = useOrganizationPermissions(organization);
  const canCreate = can('create_child_org');
  const canUpdate = can('update_org');
  const canDelete = can('delete_org');
  const canMoveCredits = can('transfer_org_credits');
  const canMoveLicences = can('manage_org_license');

  const list = usePagedList<OrganizationSummary, SubOrganizationSortKey>(INITIAL_SORT, {
    sortKeys: SUB_ORGANIZATION_SORT_KEYS,
  });
  const { selected, setSelected } = list;
  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const [editing, setEditing] = useState<EditableOrganization | null>(null);
  const [deleting, setDeleting] = useState<OrganizationSummary | null>(null);
  const [creditDialog, setCreditDialog] = useState<'allocate' | 'reclaim' | 'transfer' | null>(null);
  const closeCreditDialog = () => setCreditDialog(null);
  const [licenceDialog, setLicenceDialog] = useState<'allocate' | 'reclaim' | null>(null);
  const closeLicenceDialog = () => setLicenceDialog(null);

  const { data, isPending, isError, error, refetch, isRefetching, isFetching } = useSubOrganizations(
    organization.id,
    list.query,
  );

  const createButton = canCreate && (
    <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={openCreate}>
      Create sub-organization
    </Button>
  );
  const nothingYet = data !== undefined && data.pagination.total === 0 && list.debounced === '';
  // The selected rows with the balances of the latest page: after a move the dialogs show the new ones.
  const selectedNow = selected.map((row) => data?.data.find((fresh) => fresh.id === row.id) ?? row);
  const current = {
    id: organization.id,
    name: organization.name,
    credits: organization.credits ?? NO_CREDITS,
  };
  const licenceHolder = {
    id: organization.id,
    name: organization.name,
    licenses: organization.licenses ?? NO_LICENCES,
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1} fz="h2">
          Sub organizations
        </Title>
        {!nothingYet && createButton}
      </Group>

      {isError && !data ? (
        <LoadError
          title="Sub-organizations could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : nothingYet ? (
        <Card py="xl">
          <EmptyState
            icon={<IconBuildingCommunity />}
            title="No sub-organizations yet"
            description={`${organization.name} has no sub-organizations.`}
            variant="light"
          >
            {createButton && <Group mt="md">{createButton}</Group>}
          </EmptyState>
        </Card>
      ) : (
        <Stack gap="sm">
          <SearchInput
            label="Search sub-organizations"
            placeholder={SEARCH_HINT.organizations}
            value={list.search}
            onChange={list.setSearch}
          />
          {isError && (
            <LoadError
              title="Sub-organizations could not be refreshed"
              error={error}
              onRetry={() => void refetch()}
              retrying={isRefetching}
            />
          )}
          <BulkActions
            selected={selected.length}
            onClear={() => setSelected([])}
            credits={
              canMoveCredits
                ? {
                    onAllocate: () => setCreditDialog('allocate'),
                    onReclaim: () => setCreditDialog('reclaim'),
                    onTransfer: () => setCreditDialog('transfer'),
                  }
                : undefined
            }
            licences={
              canMoveLicences
                ? {
                    onAllocate: () => setLicenceDialog('allocate'),
                    onReclaim: () => setLicenceDialog('reclaim'),
                    unavailable:
                      licenceHolder.licenses.length === 0
                        ? `${organization.name} holds no licence: no seats to allocate or reclaim`
                        : undefined,
                  }
                : undefined
            }
          />
          <SubOrganizationsTable
            records={data?.data ?? []}
            totals={data?.pagination}
            {...list.table}
            fetching={isPending || (isFetching && !isRefetching)}
            onEdit={canUpdate ? (child) => setEditing(child) : undefined}
            onDelete={(child) => setDeleting(child)}
            deleteForbidden={!canDelete}
          />
        </Stack>
      )}

      <CreateOrganizationModal
        opened={creating}
        onClose={closeCreate}
        onCreated={closeCreate}
        parent={{ id: organization.id, name: organization.name }}
        mayCreateRoot={false}
        canAppointOwner={role === 'system_admin' || role === 'organization_owner'}
      />
      <EditOrganizationModal organization={editing} onClose={() => setEditing(null)} />
      <AllocateOrganizationsModal
        opened={creditDialog === 'allocate'}
        onClose={closeCreditDialog}
        source={current}
        targets={selectedNow}
      />
      <ReclaimOrganizationsModal
        opened={creditDialog === 'reclaim'}
        onClose={closeCreditDialog}
        target={current}
        sources={selectedNow}
      />
      <TransferOrganizationModal
        opened={creditDialog === 'transfer'}
        onClose={closeCreditDialog}
        parent={current}
        source={selectedNow.length === 1 ? (selectedNow[0] ?? null) : null}
      />
      <AllocateLicencesModal
        opened={licenceDialog === 'allocate'}
        onClose={closeLicenceDialog}
        source={licenceHolder}
        targets={selectedNow}
      />
      <ReclaimLicencesModal
        opened={licenceDialog === 'reclaim'}
        onClose={closeLicenceDialog}
        target={licenceHolder}
        sources={selectedNow}
      />
      <DeleteOrganizationModal
        organization={deleting}
        parentName={organization.name}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => setSelected((current) => current.filter((o) => o.id !== id))}
      />
    </Stack>
  );
}
