import type { OrganizationUser } from '@allot/domain/users';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AllocateUsersModal } from '../../features/credits/components/allocate-users-modal';
import { ReclaimUsersModal } from '../../features/credits/components/reclaim-users-modal';
import { TransferUsersModal } from '../../features/credits/components/transfer-users-modal';
import { organizationQueryOptions } from '../../features/organizations/api/get-organization';
import { ChangeLicenceModal } from '../../features/users/components/change-licence-modal';
import { RemoveUsersModal } from '../../features/users/components/remove-users-modal';
import type { SubtreeSelection } from '../../features/users/components/subtree-users';
import { UsersSelectionToolbar } from '../../features/users/components/users-selection-toolbar';
import { useSendInvitationsAgain } from '../../features/users/hooks/use-send-invitations-again';
import { mixedSelectionReason, selectionOrganizations } from '../../features/users/selection-organizations';
import { errorText } from '../../lib/api-error';

const NO_CREDITS = { shared: 0, protected: 0 };

/**
 * The Users toolbar over the list of everyone below (issue 33, item 4): the same moves as an organization's own
 * list, for people of one organization of the subtree at a time, in that organization (its pools, its licences:
 * read when the selection names it). A selection of several organizations greys the moves out and says why
 * (decision 012); sending invitations again is per person, so it takes people of any organization. Here, not in
 * features/users: it puts the credit dialogs and the users' together (the credit dialogs import users' pieces).
 */
export function SubtreeSelectionActions({
  selected,
  onSelectedChange,
  permissions,
  onChanged,
}: SubtreeSelection) {
  const organizations = selectionOrganizations(selected);
  const only = organizations.length === 1 ? organizations[0] : undefined;
  const detail = useQuery({ ...organizationQueryOptions(only?.id ?? ''), enabled: only !== undefined });
  const [dialog, setDialog] = useState<'allocate' | 'reclaim' | 'transfer' | 'licence' | null>(null);
  // The organization is kept with the people: the selection (and so `only`) empties once they are removed.
  const [removing, setRemoving] = useState<{
    users: OrganizationUser[];
    organization: { id: string; name: string };
  }>({ users: [], organization: { id: '', name: '' } });
  const resendMany = useSendInvitationsAgain();
  const close = () => setDialog(null);

  const blocked =
    mixedSelectionReason(organizations) ??
    (only && detail.isPending ? `Loading ${only.name}…` : undefined) ??
    (only && detail.isError ? `${only.name} could not be loaded: ${errorText(detail.error)}` : undefined);
  const where = only ?? { id: '', name: '' };
  const licences = detail.data?.licenses ?? [];
  // Offered whatever the selection (it may name an organization with licences); greyed where there is none.
  const noLicence =
    only && detail.data && licences.length === 0
      ? `${only.name} has no licence to move people onto.`
      : undefined;
  const resendable = selected.filter((user) => permissions.canResend(user));
  const unselect = (ids: string[]) =>
    onSelectedChange(
      selected.filter((user) => user.organization?.id !== removing.organization.id || !ids.includes(user.id)),
    );

  return (
    <>
      <UsersSelectionToolbar
        selected={selected.length}
        onClear={() => onSelectedChange([])}
        onChangeLicence={() => setDialog('licence')}
        changeLicenceBlocked={permissions.changeLicenceBlocked(selected) ?? noLicence}
        onRemove={() => setRemoving({ users: selected, organization: where })}
        removeBlocked={permissions.removeBlocked(selected)}
        creditSelected={selected.length}
        onAllocateCredits={() => setDialog('allocate')}
        onReclaimCredits={() => setDialog('reclaim')}
        onTransferCredits={() => setDialog('transfer')}
        resendSelected={resendable.length}
        resending={resendMany.sending}
        onResendInvitations={() =>
          void resendMany.sendAll(
            resendable.map((user) => ({ ...user, organizationId: user.organization?.id ?? '' })),
          )
        }
        blocked={selected.length > 0 ? blocked : undefined}
      />
      <AllocateUsersModal
        opened={dialog === 'allocate' && !blocked}
        onClose={close}
        organization={{ ...where, credits: detail.data?.credits ?? NO_CREDITS }}
        users={selected}
      />
      <ReclaimUsersModal
        opened={dialog === 'reclaim' && !blocked}
        onClose={close}
        organization={{ ...where, credits: detail.data?.credits ?? NO_CREDITS }}
        users={selected}
      />
      <TransferUsersModal
        opened={dialog === 'transfer' && !blocked}
        onClose={close}
        organizationId={where.id}
        users={selected}
      />
      <ChangeLicenceModal
        opened={dialog === 'licence' && !blocked}
        users={selected}
        organization={{ ...where, licenses: licences }}
        onClose={close}
        onChanged={() => {
          onSelectedChange([]);
          onChanged();
        }}
      />
      <RemoveUsersModal
        users={removing.users}
        organization={removing.organization}
        onClose={() => {
          setRemoving((current) => ({ ...current, users: [] }));
          onChanged();
        }}
        onRemoved={unselect}
      />
    </>
  );
}
