import 'mantine-datatable/styles.css';
import { LICENSE_TYPES, type LicenseType } from '@allot/domain/organizations';
import { ORGANIZATION_USER_SORT_KEYS, type OrganizationUser } from '@allot/domain/users';
import { Alert, Button, Card, EmptyState, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { IconAlertTriangle, IconFileImport, IconLock, IconUserPlus, IconUsers } from '@tabler/icons-react';
import type { DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../components/load-error';
import { ReasonedButton } from '../../components/reasoned-button';
import { SearchInput } from '../../components/search-input';
import { AllocateUsersModal } from '../../features/credits/components/allocate-users-modal';
import { ReclaimUsersModal } from '../../features/credits/components/reclaim-users-modal';
import { TransferUsersModal } from '../../features/credits/components/transfer-users-modal';
import { ProductAccessModal } from '../../features/integration/components/product-access-modal';
import { type AccessViewer, defaultLicenseType } from '../../features/integration/product-access';
import { useCurrentOrganization } from '../../features/organizations/api/use-current-organization';
import { useOrganizationPermissions } from '../../features/organizations/hooks/use-organization-permissions';
import { useAbove } from '../../features/requests/api/get-above';
import { AskAboveButton } from '../../features/requests/components/ask-above-button';
import { useRequestRights } from '../../features/requests/hooks/use-request-rights';
import {
  type OrganizationUserSortKey,
  useOrganizationUsers,
} from '../../features/users/api/get-organization-users';
import { AddUserModal } from '../../features/users/components/add-user-modal';
import { ChangeLicenceModal } from '../../features/users/components/change-licence-modal';
import { ChangeRoleModal } from '../../features/users/components/change-role-modal';
import { EditUserModal } from '../../features/users/components/edit-user-modal';
import { ImportUsersModal } from '../../features/users/components/import-users-modal';
import { LicenceSeats } from '../../features/users/components/licence-seats';
import { MoreSeatsLink } from '../../features/users/components/more-seats-link';
import { RemoveUsersModal } from '../../features/users/components/remove-users-modal';
import { ResetTwoFactorModal } from '../../features/users/components/reset-two-factor-modal';
import { SubtreeUsers } from '../../features/users/components/subtree-users';
import { UserRowActions } from '../../features/users/components/user-row-actions';
import { UsersSelectionToolbar } from '../../features/users/components/users-selection-toolbar';
import { UsersTable } from '../../features/users/components/users-table';
import { useSendInvitationsAgain } from '../../features/users/hooks/use-send-invitations-again';
import { useUserPermissions } from '../../features/users/hooks/use-user-permissions';
import { SEARCH_HINT } from '../../lib/search-hints';
import { unusedSeats } from '../../lib/seats';
import { usePagedList } from '../../lib/use-paged-list';
import { SubtreeSelectionActions } from './subtree-selection-actions';

const NO_CREDITS = { shared: 0, protected: 0 };
const NO_ACCESS_ACTIONS: AccessViewer = {
  mayResend: false,
  changeLicenceBlocked: undefined,
  mayAddCredits: false,
  mayManageLicences: false,
};
const INITIAL_SORT: DataTableSortStatus<OrganizationUser> = { columnAccessor: 'name', direction: 'asc' };
/** `?people=all`: the list shows everyone of the subtree. */
const PEOPLE_PARAM = 'people';

/** Users (spec §2): the members of the current organization, added one by one or from a CSV file. */
export function UsersScreen() {
  const organization = useCurrentOrganization();
  useDocumentTitle(`Users · ${organization.name} · Allot`);
  const permissions = useUserPermissions(organization);
  const { can } = useOrganizationPermissions(organization);
  const licenses = organization.licenses ?? [];
  // CONTRACT §6: with licences, a new user takes a free seat of one of them; none free is a 402. Say it first.
  const seatsFull = licenses.length > 0 && licenses.every((license) => unusedSeats(license) === 0);
  const mayBuySeats = can('manage_org_license');
  // The organization above holds a free seat of a full licence: the banner offers to ask it (CONTRACT §11).
  const { mayAsk } = useRequestRights(organization);
  const { data: above } = useAbove(organization.id, seatsFull && mayAsk);
  const askableType = mayAsk
    ? licenses.find((license) => above?.freeSeats[license.licenseType] === true)?.licenseType
    : undefined;
  const addBlocked = seatsFull
    ? `Every licence seat of ${organization.name} is used. ${mayBuySeats ? 'Buy seats on the Licenses screen first.' : 'Ask an owner to add seats.'}`
    : undefined;

  const list = usePagedList<OrganizationUser, OrganizationUserSortKey>(INITIAL_SORT, {
    sortKeys: ORGANIZATION_USER_SORT_KEYS,
  });
  const { selected, setSelected } = list;
  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);
  const [importing, { open: openImport, close: closeImport }] = useDisclosure(false);
  const [changingLicence, { open: openLicence, close: closeLicence }] = useDisclosure(false);
  const [editing, setEditing] = useState<OrganizationUser | null>(null);
  const [changingRole, setChangingRole] = useState<OrganizationUser | null>(null);
  const [removing, setRemoving] = useState<OrganizationUser[]>([]);
  const [resettingTwoFactor, setResettingTwoFactor] = useState<OrganizationUser | null>(null);
  const [creditDialog, setCreditDialog] = useState<'allocate' | 'reclaim' | 'transfer' | null>(null);
  const closeCreditDialog = () => setCreditDialog(null);
  // The product access panel: whom, for which product; and the dialog open in its place to fix a reason
  // (the panel comes back, asked again, once that dialog closes).
  const [access, setAccess] = useState<{ user: OrganizationUser; licenseType: LicenseType } | null>(null);
  const [accessFix, setAccessFix] = useState<
    { kind: 'seat'; licenseId: string } | { kind: 'credits' } | null
  >(null);
  const endAccessFix = () => setAccessFix(null);
  const resendMany = useSendInvitationsAgain();

  // Everyone of the subtree (CONTRACT §6, issue 33), kept in the URL: only where there are organizations below.
  const [params, setParams] = useSearchParams();
  const hasBelow = organization.subOrganizationsCount > 0;
  const everyone = hasBelow && params.get(PEOPLE_PARAM) === 'all';
  const { data, isPending, isError, error, refetch, isRefetching, isFetching } = useOrganizationUsers(
    organization.id,
    list.query,
    permissions.canManage && !everyone,
  );

  if (!permissions.canManage) {
    return (
      <Stack gap="lg">
        <Title order={1} fz="h2">
          Users
        </Title>
        <Card py="xl">
          <EmptyState
            icon={<IconLock />}
            title="No access"
            description={`Managing the users of ${organization.name} needs the manage users permission.`}
            variant="light"
          />
        </Card>
      </Stack>
    );
  }

  const actions = (
    <Group gap="sm">
      <Button
        variant="default"
        leftSection={<IconFileImport size={16} aria-hidden="true" />}
        onClick={openImport}
      >
        Import CSV
      </Button>
      <ReasonedButton
        reason={addBlocked}
        leftSection={<IconUserPlus size={16} aria-hidden="true" />}
        onClick={openAdd}
      >
        Add user
      </ReasonedButton>
    </Group>
  );
  const nothingYet = data !== undefined && data.pagination.total === 0 && list.debounced === '';
  // The selected rows with the balances of the latest page: after a move the dialogs show the new ones.
  const selectedNow = selected.map((row) => data?.data.find((fresh) => fresh.id === row.id) ?? row);
  // Everyone selected takes part in the moves: credits may wait on a pending invitation (CONTRACT §6).
  const creditUsers = selectedNow;
  const resendable = selectedNow.filter((user) => permissions.canResend(user));
  const creditSource = {
    id: organization.id,
    name: organization.name,
    credits: organization.credits ?? NO_CREDITS,
  };
  const removeSelected = (ids: string[]) =>
    setSelected((current) => current.filter((u) => !ids.includes(u.id)));
  // The person of the product access panel as the latest page shows them (seat, balance after a fix).
  const accessUser = access ? (data?.data.find((fresh) => fresh.id === access.user.id) ?? access.user) : null;
  const seatFor = accessFix?.kind === 'seat' ? accessUser : null;
  const creditsFor = accessFix?.kind === 'credits' ? accessUser : null;
  const accessViewer = (user: OrganizationUser): AccessViewer => ({
    mayResend: permissions.canResend(user),
    changeLicenceBlocked: permissions.changeLicenceBlocked([user]),
    mayAddCredits: can('transfer_org_credits'),
    mayManageLicences: can('manage_org_license'),
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1} fz="h2">
          Users
        </Title>
        {!nothingYet && actions}
      </Group>

      <LicenceSeats licenses={licenses} />
      {seatsFull && (
        <Alert
          variant="light"
          color="orange"
          icon={<IconAlertTriangle aria-hidden="true" />}
          title="No free licence seat"
          aria-label="No free licence seat"
        >
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              Every seat of {organization.name}'s licences is used, so no user can be added until seats are
              added or members are removed.
            </Text>
            <Group gap="xs">
              {askableType && (
                <AskAboveButton
                  organization={organization}
                  preset={{ kind: 'seats', licenseType: askableType }}
                  label={(parent) => `Ask ${parent} for seats`}
                  size="xs"
                  color="orange"
                />
              )}
              <MoreSeatsLink organizationId={organization.id} canBuySeats={mayBuySeats} label="Buy seats" />
            </Group>
          </Group>
        </Alert>
      )}

      {hasBelow && (
        <SegmentedControl
          aria-label="Whose people"
          value={everyone ? 'all' : 'own'}
          onChange={(value) =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                if (value === 'all') next.set(PEOPLE_PARAM, 'all');
                else next.delete(PEOPLE_PARAM);
                return next;
              },
              { replace: false },
            )
          }
          data={[
            { value: 'own', label: 'This organization' },
            { value: 'all', label: 'Everyone below too' },
          ]}
          fullWidth
          maw={420}
        />
      )}

      {everyone ? (
        <SubtreeUsers
          organization={organization}
          selectionActions={(selection) => <SubtreeSelectionActions {...selection} />}
        />
      ) : isError && !data ? (
        <LoadError
          title="Users could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : nothingYet ? (
        <Card py="xl">
          <EmptyState
            icon={<IconUsers />}
            title="No users yet"
            description={`Add the people of ${organization.name} one by one, or import them from a CSV file.`}
            variant="light"
          >
            <Group mt="md" justify="center">
              {actions}
            </Group>
          </EmptyState>
        </Card>
      ) : (
        <Stack gap="sm">
          <SearchInput
            label="Search users"
            placeholder={SEARCH_HINT.users}
            value={list.search}
            onChange={list.setSearch}
          />
          {isError && (
            <LoadError
              title="Users could not be refreshed"
              error={error}
              onRetry={() => void refetch()}
              retrying={isRefetching}
            />
          )}
          <UsersSelectionToolbar
            selected={selected.length}
            onClear={() => setSelected([])}
            onChangeLicence={licenses.length > 0 ? openLicence : undefined}
            changeLicenceBlocked={permissions.changeLicenceBlocked(selectedNow)}
            onRemove={() => setRemoving(selected)}
            removeBlocked={permissions.removeBlocked(selectedNow)}
            creditSelected={creditUsers.length}
            onAllocateCredits={() => setCreditDialog('allocate')}
            onReclaimCredits={() => setCreditDialog('reclaim')}
            onTransferCredits={() => setCreditDialog('transfer')}
            resendSelected={resendable.length}
            resending={resendMany.sending}
            onResendInvitations={() =>
              void resendMany.sendAll(
                resendable.map((user) => ({ ...user, organizationId: organization.id })),
              )
            }
          />
          <UsersTable
            records={data?.data ?? []}
            totals={data?.pagination}
            {...list.table}
            fetching={isPending || (isFetching && !isRefetching)}
            renderActions={(user) => (
              <UserRowActions
                user={user}
                onEdit={permissions.canEdit(user) ? () => setEditing(user) : undefined}
                onChangeRole={permissions.canChangeRole(user) ? () => setChangingRole(user) : undefined}
                onRemove={permissions.canRemove(user) ? () => setRemoving([user]) : undefined}
                resendFrom={permissions.canResend(user) ? organization.id : undefined}
                onResetTwoFactor={
                  permissions.canResetTwoFactor(user) ? () => setResettingTwoFactor(user) : undefined
                }
                onCheckAccess={
                  permissions.canCheckAccess(user)
                    ? () => setAccess({ user, licenseType: defaultLicenseType(user, licenses) })
                    : undefined
                }
              />
            )}
          />
        </Stack>
      )}

      <AddUserModal
        opened={adding}
        onClose={closeAdd}
        organization={organization}
        roles={permissions.roles}
      />
      <ImportUsersModal opened={importing} onClose={closeImport} organization={organization} />
      <EditUserModal user={editing} onClose={() => setEditing(null)} />
      <ChangeRoleModal
        user={changingRole}
        organization={organization}
        roles={permissions.roles}
        onClose={() => setChangingRole(null)}
      />
      {/* Change licence and Allocate credits serve the selection, or the product access panel's person. */}
      <ChangeLicenceModal
        opened={changingLicence || seatFor !== null}
        users={seatFor ? [seatFor] : selected}
        organization={organization}
        onClose={seatFor ? endAccessFix : closeLicence}
        onChanged={seatFor ? () => undefined : () => setSelected([])}
        initialLicenseId={accessFix?.kind === 'seat' ? accessFix.licenseId : undefined}
      />
      <AllocateUsersModal
        opened={creditDialog === 'allocate' || creditsFor !== null}
        onClose={creditsFor ? endAccessFix : closeCreditDialog}
        organization={creditSource}
        users={creditsFor ? [creditsFor] : creditUsers}
        // The panel offers credits when the shared pool is empty: the protected pool is where they can come from.
        initialPool={creditsFor ? 'protected' : undefined}
      />
      <ReclaimUsersModal
        opened={creditDialog === 'reclaim'}
        onClose={closeCreditDialog}
        organization={creditSource}
        users={creditUsers}
      />
      <TransferUsersModal
        opened={creditDialog === 'transfer'}
        onClose={closeCreditDialog}
        organizationId={organization.id}
        users={creditUsers}
      />
      <ProductAccessModal
        person={accessUser}
        opened={accessFix === null}
        organization={organization}
        licenseType={access?.licenseType ?? LICENSE_TYPES[0]}
        onLicenseTypeChange={(licenseType) => setAccess((current) => current && { ...current, licenseType })}
        viewer={accessUser ? accessViewer(accessUser) : NO_ACCESS_ACTIONS}
        onGiveSeat={(licenseId) => setAccessFix({ kind: 'seat', licenseId })}
        onAddCredits={() => setAccessFix({ kind: 'credits' })}
        onClose={() => setAccess(null)}
      />
      <ResetTwoFactorModal user={resettingTwoFactor} onClose={() => setResettingTwoFactor(null)} />
      <RemoveUsersModal
        users={removing}
        organization={organization}
        onClose={() => setRemoving([])}
        onRemoved={removeSelected}
      />
    </Stack>
  );
}
