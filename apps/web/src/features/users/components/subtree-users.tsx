import { LICENSE_TYPE_LABEL, type Organization } from '@allot/domain/organizations';
import { ORGANIZATION_USER_SORT_KEYS, type OrganizationUser } from '@allot/domain/users';
import { Anchor, Box, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataTableColumn, DataTableSortStatus } from 'mantine-datatable';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { SearchInput } from '../../../components/search-input';
import { SelectablePagedTable } from '../../../components/selectable-paged-table';
import { formatCount } from '../../../lib/format';
import { personPath } from '../../../lib/person-path';
import { queryKeys } from '../../../lib/query-keys';
import { SEARCH_HINT } from '../../../lib/search-hints';
import { useListUrl } from '../../../lib/use-list-url';
import { usePagedList } from '../../../lib/use-paged-list';
import { organizationQueryOptions } from '../../organizations/api/get-organization';
import { SubtreeOrganizationSelect } from '../../organizations/components/subtree-organization-select';
import { type OrganizationUserSortKey, useSubtreeUsers } from '../api/get-organization-users';
import { useUserPermissions } from '../hooks/use-user-permissions';
import { membershipKey } from '../selection-organizations';
import { ChangeRoleModal } from './change-role-modal';
import { EditUserModal } from './edit-user-modal';
import { PendingBadge } from './pending-badge';
import { RemoveUsersModal } from './remove-users-modal';
import { ResetTwoFactorModal } from './reset-two-factor-modal';
import { RoleBadge } from './role-badge';
import { UserRowActions } from './user-row-actions';

const INITIAL_SORT: DataTableSortStatus<OrganizationUser> = { columnAccessor: 'name', direction: 'asc' };
/** The subtree list's own URL parameters (`allQ`, `allPage`, …), beside the organization's own list. */
export const SUBTREE_LIST_PREFIX = 'all';
/** `?allOrg=`: the list narrowed to one organization of the subtree (CONTRACT §6 `organizationId`). */
const ORGANIZATION_PARAM = 'allOrg';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a row's person is a member: the organization the row's actions act in. */
function rowOrganization(user: OrganizationUser) {
  return { id: user.organization?.id ?? '', name: user.organization?.name ?? '' };
}

/**
 * Everyone in an organization and below (CONTRACT §6 `scope=subtree`, issue 33): who they are, where, and their
 * role there, narrowed to one organization on demand. Each row offers the single-person actions of the
 * organization's own list, acting in the row's organization: the caller's role here holds in every organization
 * below (CONTRACT §2), so the same checks apply. Selected rows get the toolbar of that list (credit moves, licence,
 * resend, remove), for people of one organization at a time (`selectionActions`: app/routes'
 * `SubtreeSelectionActions`). The product access panel
 * stays in the person's own organization's list ("Open in …"). A person in two organizations is two rows.
 */
/** What the toolbar over the selected rows is given (the Users screen puts the credit dialogs together with it). */
export interface SubtreeSelection {
  /** The selected rows as the latest page shows them (balances after a move). */
  selected: OrganizationUser[];
  onSelectedChange: (selected: OrganizationUser[]) => void;
  /** The caller's rights in the organization shown, which hold in every organization below (CONTRACT §2). */
  permissions: ReturnType<typeof useUserPermissions>;
  /** After a change the dialogs do not refresh this list for (they refresh the person's own organization's). */
  onChanged: () => void;
}

export function SubtreeUsers({
  organization,
  selectionActions,
}: {
  organization: Organization;
  selectionActions: (selection: SubtreeSelection) => ReactNode;
}) {
  const organizationId = organization.id;
  const organizationName = organization.name;
  const permissions = useUserPermissions(organization);
  const list = usePagedList<OrganizationUser, OrganizationUserSortKey>(INITIAL_SORT, {
    prefix: SUBTREE_LIST_PREFIX,
    sortKeys: ORGANIZATION_USER_SORT_KEYS,
  });
  const { params, write } = useListUrl();
  const asked = params.get(ORGANIZATION_PARAM);
  const only = asked && UUID.test(asked) ? asked : '';
  const { data, isPending, isError, error, refetch, isRefetching, isFetching } = useSubtreeUsers(
    organizationId,
    only ? { ...list.query, organizationId: only } : list.query,
  );
  const [editing, setEditing] = useState<OrganizationUser | null>(null);
  const [changingRole, setChangingRole] = useState<OrganizationUser | null>(null);
  const [removing, setRemoving] = useState<OrganizationUser | null>(null);
  const [resettingTwoFactor, setResettingTwoFactor] = useState<OrganizationUser | null>(null);
  // A new owner demotes the one before, whom the role dialog names: the row's organization says who it is.
  const roleOrganization = useQuery({
    ...organizationQueryOptions(changingRole?.organization?.id ?? ''),
    enabled: changingRole !== null,
  });
  const queryClient = useQueryClient();
  // The dialogs refresh the row's organization's own list; this list sits under the organization above.
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: queryKeys.users.membersOf(organizationId) });
  const records = data?.data ?? [];
  // The selected rows with the balances of the latest page: after a move the dialogs show the new ones.
  const selectedNow = list.selected.map(
    (row) => records.find((fresh) => membershipKey(fresh) === membershipKey(row)) ?? row,
  );
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
      render: (user) => <RoleBadge role={user.role} />,
    },
    {
      accessor: 'licence',
      title: 'Licence',
      render: (user) =>
        user.licence ? (
          <Text size="sm">{LICENSE_TYPE_LABEL[user.licence.licenseType]}</Text>
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
      textAlign: 'right',
      render: (user) => <Text size="sm">{formatCount(user.credits)}</Text>,
    },
    {
      accessor: 'actions',
      title: 'Actions',
      textAlign: 'right',
      width: 90,
      render: (user) => {
        const where = rowOrganization(user);
        return (
          <UserRowActions
            user={user}
            onEdit={permissions.canEdit(user) ? () => setEditing(user) : undefined}
            onChangeRole={permissions.canChangeRole(user) ? () => setChangingRole(user) : undefined}
            onRemove={permissions.canRemove(user) ? () => setRemoving(user) : undefined}
            resendFrom={permissions.canResend(user) ? where.id : undefined}
            onResetTwoFactor={
              permissions.canResetTwoFactor(user) ? () => setResettingTwoFactor(user) : undefined
            }
            openIn={
              permissions.canCheckAccess(user)
                ? { name: where.name, to: personPath(where.id, user.email) }
                : undefined
            }
          />
        );
      },
    },
  ];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Everyone in {organizationName} and the organizations below it. Each row's actions act in the person's
        organization; select people of one organization to move their credits or licences together.
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Box flex="1 1 240px" maw={360}>
          <SearchInput
            label="Search everyone below"
            placeholder={SEARCH_HINT.users}
            value={list.search}
            onChange={list.setSearch}
          />
        </Box>
        <SubtreeOrganizationSelect
          organization={organization}
          seen={records.flatMap((user) =>
            user.organization ? [{ value: user.organization.id, label: user.organization.name }] : [],
          )}
          value={only || null}
          onChange={(value) =>
            write({ [ORGANIZATION_PARAM]: value, [`${SUBTREE_LIST_PREFIX}Page`]: null }, 'push')
          }
        />
      </Group>
      {isError && (
        <LoadError
          title="The people below could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      )}
      {selectionActions({
        selected: selectedNow,
        onSelectedChange: list.setSelected,
        permissions,
        onChanged: refresh,
      })}
      <SelectablePagedTable<OrganizationUser>
        label="Everyone below"
        columns={columns}
        // A person in two organizations of the subtree is two rows.
        idAccessor={membershipKey}
        rowLabel={(user) => `${user.name}, ${user.organization?.name ?? ''}`}
        records={records}
        totals={data?.pagination}
        {...list.table}
        fetching={isPending || isFetching}
      />
      <EditUserModal user={editing} onClose={() => setEditing(null)} />
      <ChangeRoleModal
        user={roleOrganization.data ? changingRole : null}
        organization={roleOrganization.data ?? { id: '', name: '', adminName: null }}
        roles={permissions.roles}
        onClose={() => {
          setChangingRole(null);
          refresh();
        }}
      />
      <ResetTwoFactorModal user={resettingTwoFactor} onClose={() => setResettingTwoFactor(null)} />
      <RemoveUsersModal
        users={removing ? [removing] : []}
        organization={removing ? rowOrganization(removing) : { id: '', name: '' }}
        onClose={() => {
          setRemoving(null);
          refresh();
        }}
        onRemoved={() => undefined}
      />
    </Stack>
  );
}
