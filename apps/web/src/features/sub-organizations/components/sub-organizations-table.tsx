import { MSG } from '@allot/domain/messages';
import { ORGANIZATION_TYPE_LABEL, type OrganizationSummary } from '@allot/domain/organizations';
import { ActionIcon, Anchor, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format';

interface SubOrganizationsTableProps {
  records: OrganizationSummary[];
  totalRecords: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  sortStatus: DataTableSortStatus<OrganizationSummary>;
  onSortStatusChange: (status: DataTableSortStatus<OrganizationSummary>) => void;
  selected: OrganizationSummary[];
  onSelectedChange: (selected: OrganizationSummary[]) => void;
  fetching: boolean;
  onEdit?: (organization: OrganizationSummary) => void;
  onDelete?: (organization: OrganizationSummary) => void;
}

function CreditsCell({ credits }: { credits: OrganizationSummary['credits'] }) {
  return (
    <Stack gap={0} align="flex-end">
      <Text size="sm" fw={600}>
        {formatCount(credits.shared + credits.protected)}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {formatCount(credits.shared)} shared · {formatCount(credits.protected)} protected
      </Text>
    </Stack>
  );
}

/** The direct children of an organization: server-side search, sort and pagination. */
export function SubOrganizationsTable({
  records,
  totalRecords,
  page,
  pageSize,
  onPageChange,
  sortStatus,
  onSortStatusChange,
  selected,
  onSelectedChange,
  fetching,
  onEdit,
  onDelete,
}: SubOrganizationsTableProps) {
  const columns: DataTableColumn<OrganizationSummary>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (organization) => (
        <Anchor component={Link} to={`/${encodeURIComponent(organization.id)}`} fw={600} size="sm">
          {organization.name}
        </Anchor>
      ),
    },
    {
      accessor: 'type',
      title: 'Type',
      sortable: true,
      render: (organization) => ORGANIZATION_TYPE_LABEL[organization.type],
    },
    {
      accessor: 'usersCount',
      title: 'Users',
      sortable: true,
      textAlign: 'right',
      render: (organization) => formatCount(organization.usersCount),
    },
    {
      accessor: 'subOrganizationsCount',
      title: 'Sub organizations',
      sortable: true,
      textAlign: 'right',
      render: (organization) => formatCount(organization.subOrganizationsCount),
    },
    {
      accessor: 'credits',
      title: 'Credits',
      sortable: true,
      textAlign: 'right',
      render: (organization) => <CreditsCell credits={organization.credits} />,
    },
  ];
  if (onEdit || onDelete) {
    columns.push({
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      width: 100,
      render: (organization) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {onEdit && (
            <Tooltip label="Edit">
              <ActionIcon
                variant="subtle"
                aria-label={`Edit ${organization.name}`}
                onClick={() => onEdit(organization)}
              >
                <IconPencil size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          {onDelete && (
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${organization.name}`}
                onClick={() => onDelete(organization)}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      ),
    });
  }

  return (
    <DataTable
      aria-label="Sub organizations"
      withTableBorder
      borderRadius="md"
      highlightOnHover
      verticalSpacing="sm"
      minHeight={records.length === 0 ? 220 : undefined}
      records={records}
      columns={columns}
      idAccessor="id"
      totalRecords={totalRecords}
      recordsPerPage={pageSize}
      page={page}
      onPageChange={onPageChange}
      paginationText={({ from, to, totalRecords: total }) => `${from}–${to} of ${formatCount(total)}`}
      sortStatus={sortStatus}
      onSortStatusChange={onSortStatusChange}
      selectedRecords={selected}
      onSelectedRecordsChange={onSelectedChange}
      allRecordsSelectionCheckboxProps={{ 'aria-label': 'Select all on this page' }}
      getRecordSelectionCheckboxProps={(organization) => ({ 'aria-label': `Select ${organization.name}` })}
      fetching={fetching}
      noRecordsText={MSG.noSearchResults}
    />
  );
}
