import { MSG } from '@allot/domain/messages';
import { ROLE_LABEL } from '@allot/domain/roles';
import { ORGANIZATION_USER_SORT_KEYS, type OrganizationUser } from '@allot/domain/users';
import { Anchor, Stack, Text } from '@mantine/core';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { Link } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { SearchInput } from '../../../components/search-input';
import { emptyStateWhen, withSortButtons } from '../../../components/table-a11y';
import { tablePaging } from '../../../components/table-paging';
import { formatCount } from '../../../lib/format';
import { SEARCH_HINT } from '../../../lib/search-hints';
import { usePagedList } from '../../../lib/use-paged-list';
import { type OrganizationUserSortKey, useSubtreeUsers } from '../api/get-organization-users';
import { personPath } from '../person-path';
import { PendingBadge } from './pending-badge';

const INITIAL_SORT: DataTableSortStatus<OrganizationUser> = { columnAccessor: 'name', direction: 'asc' };
/** The subtree list's own URL parameters (`allQ`, `allPage`, …), beside the organization's own list. */
export const SUBTREE_LIST_PREFIX = 'all';

/**
 * Everyone in an organization and below (CONTRACT §6 `scope=subtree`, issue 33): who they are, where, and their
 * role there; each person links to them in their organization's own list, where the actions are. A person in
 * two organizations is two rows.
 */
export function SubtreeUsers({
  organizationId,
  organizationName,
}: {
  organizationId: string;
  organizationName: string;
}) {
  const list = usePagedList<OrganizationUser, OrganizationUserSortKey>(INITIAL_SORT, {
    prefix: SUBTREE_LIST_PREFIX,
    sortKeys: ORGANIZATION_USER_SORT_KEYS,
  });
  const { data, isPending, isError, error, refetch, isRefetching, isFetching } = useSubtreeUsers(
    organizationId,
    list.query,
  );
  const records = data?.data ?? [];
  const columns: DataTableColumn<OrganizationUser>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (user) => (
        <Stack gap={4} align="flex-start">
          <Anchor
            component={Link}
            to={personPath(user.organization?.id ?? '', user.email)}
            size="sm"
            fw={600}
          >
            {user.name}
          </Anchor>
          {user.status === 'pending' && <PendingBadge />}
        </Stack>
      ),
    },
    {
      accessor: 'email',
      title: 'Email',
      sortable: true,
      render: (user) => <Text size="sm">{user.email}</Text>,
    },
    {
      accessor: 'organization',
      title: 'Organization',
      render: (user) => <Text size="sm">{user.organization?.name}</Text>,
    },
    {
      accessor: 'role',
      title: 'Role',
      sortable: true,
      render: (user) => <Text size="sm">{ROLE_LABEL[user.role]}</Text>,
    },
    {
      accessor: 'credits',
      title: 'Credits',
      sortable: true,
      textAlign: 'right',
      render: (user) => <Text size="sm">{formatCount(user.credits)}</Text>,
    },
  ];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Everyone in {organizationName} and the organizations below it. Open a person to act on them in their
        organization.
      </Text>
      <SearchInput
        label="Search everyone below"
        placeholder={SEARCH_HINT.users}
        value={list.search}
        onChange={list.setSearch}
      />
      {isError && (
        <LoadError
          title="The people below could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      )}
      <DataTable<OrganizationUser>
        aria-label="Everyone below"
        withTableBorder
        borderRadius="md"
        highlightOnHover
        verticalSpacing="sm"
        minHeight={records.length === 0 ? 220 : undefined}
        records={records}
        columns={withSortButtons(columns, list.table.sortStatus, list.table.onSortStatusChange)}
        // A person in two organizations of the subtree is two rows.
        idAccessor={(user) => `${user.organization?.id}:${user.id}`}
        pinFirstColumn
        {...tablePaging({
          label: 'Everyone below',
          totals: data?.pagination,
          page: list.table.page,
          pageSize: list.table.pageSize,
          onPageChange: list.table.onPageChange,
        })}
        fetching={isPending || isFetching}
        {...emptyStateWhen(records.length === 0 && !isPending && !isFetching, MSG.noSearchResults)}
      />
    </Stack>
  );
}
