import { ORGANIZATION_TYPE_LABEL, type OrganizationSummary } from '@allot/domain/organizations';
import { ActionIcon, Anchor, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { Link } from 'react-router';
import { ReasonedActionIcon } from '../../../components/reasoned-button';
import { type PagedTableState, SelectablePagedTable } from '../../../components/selectable-paged-table';
import { formatCount } from '../../../lib/format';
import { deleteBlocked } from '../../organizations/delete-blocked';

interface SubOrganizationsTableProps extends PagedTableState<OrganizationSummary> {
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
export function SubOrganizationsTable({ onEdit, onDelete, ...state }: SubOrganizationsTableProps) {
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
            <ReasonedActionIcon
              label={`Delete ${organization.name}`}
              tooltip="Delete"
              reason={deleteBlocked(organization)}
              color="red"
              onClick={() => onDelete(organization)}
            >
              <IconTrash size={18} />
            </ReasonedActionIcon>
          )}
        </Group>
      ),
    });
  }

  return <SelectablePagedTable label="Sub organizations" columns={columns} {...state} />;
}
