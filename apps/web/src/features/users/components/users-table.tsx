import { LICENSE_TYPE_LABEL } from '@allot/domain/organizations';
import type { OrganizationUser } from '@allot/domain/users';
import { Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import type { ReactNode } from 'react';
import { type PagedTableState, SelectablePagedTable } from '../../../components/selectable-paged-table';
import { formatCount } from '../../../lib/format';
import { PendingBadge } from './pending-badge';
import { RoleBadge } from './role-badge';

interface UsersTableProps extends PagedTableState<OrganizationUser> {
  /** The actions of one row; none renders no actions column. */
  renderActions?: (user: OrganizationUser) => ReactNode;
}

/** The members of an organization: server-side search, sort and pagination, selectable rows. */
export function UsersTable({ renderActions, ...state }: UsersTableProps) {
  const columns: DataTableColumn<OrganizationUser>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (user) => (
        <Stack gap={4} align="flex-start">
          <Text size="sm" fw={600}>
            {user.name}
          </Text>
          {user.status === 'pending' && <PendingBadge />}
        </Stack>
      ),
    },
    {
      accessor: 'email',
      title: 'Email',
      sortable: true,
      render: (user) => (
        <Stack gap={0}>
          <Text size="sm">{user.email}</Text>
          {user.pendingEmail && (
            <Text size="xs" c="blue.9">
              Email change pending: {user.pendingEmail}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      accessor: 'role',
      title: 'Role',
      sortable: true,
      width: 120,
      render: (user) => <RoleBadge role={user.role} />,
    },
    {
      accessor: 'licence',
      title: 'Licence',
      width: 140,
      render: (user) =>
        user.licence ? (
          LICENSE_TYPE_LABEL[user.licence.licenseType]
        ) : (
          <Text span c="dimmed" size="sm" aria-label="No licence">
            —
          </Text>
        ),
    },
    {
      accessor: 'credits',
      title: 'Credits',
      sortable: true,
      width: 110,
      textAlign: 'right',
      render: (user) => formatCount(user.credits),
    },
  ];
  if (renderActions) {
    columns.push({
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      width: 90,
      render: renderActions,
    });
  }

  return <SelectablePagedTable label="Users" columns={columns} {...state} />;
}
