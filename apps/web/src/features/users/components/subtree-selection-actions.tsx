import type { OrganizationUser } from '@allot/domain/users';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../../../lib/api-error';
import { AllocateUsersModal } from '../../credits/components/allocate-users-modal';
import { ReclaimUsersModal } from '../../credits/components/reclaim-users-modal';
import { TransferUsersModal } from '../../credits/components/transfer-users-modal';
import { organizationQueryOptions } from '../../organizations/api/get-organization';
import { useSendInvitationsAgain } from '../hooks/use-send-invitations-again';
import type { useUserPermissions } from '../hooks/use-user-permissions';
import { mixedSelectionReason, selectionOrganizations } from '../selection-organizations';
import { ChangeLicenceModal } from './change-licence-modal';
import { RemoveUsersModal } from './remove-users-modal';
import { UsersSelectionToolbar } from './users-selection-toolbar';

const NO_CREDITS = { shared: 0, protected: 0 };

interface SubtreeSelectionActionsProps {
  /** The selected rows as the latest page shows them (balances after a move). */
  selected: OrganizationUser[];
  onSelectedChange: (selected: OrganizationUser[]) => void;
  /** The caller's rights in the organization shown, which hold in every organization below (CONTRACT §2). */
  permissions: ReturnType<typeof useUserPermissions>;
  /** After a change the dialogs do not refresh this list for (they refresh the person's own organization's). */
  onChanged: () => void;
}

/**
 * The Users toolbar over the list of everyone below (issue 33, item 4): the same moves as an organization's own
 * list, for people of one organization of the subtree at a time, in that organization (its pools, its licences:
 * read when the selection names it). A selection of several organizations greys the moves out and says why
 * (decision 012); sending invitations again is per person, so it takes people of any organization.
 */
export function SubtreeSelectionActions({
  selected,
  onSelectedChange,
  permissions,
  onChanged,
}: SubtreeSelectionActionsProps) {
  const organizations = selectionOrganizations(selected);
  const only = organizations.length === 1 ? organizations[0] : undefined;
  const detail = useQuery({ ...organizationQueryOptions(only?.id ?? ''), enabled: only !== undefined });
  const [dialog, setDialog] = useState<'allocate' | 'reclaim' | 'transfer' | 'licence' | null>(null);
  const [removing, setRemoving] = useState<OrganizationUser[]>([]);
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
    onSelectedChange(selected.filter((user) => user.organization?.id !== where.id || !ids.includes(user.id)));

  return (
    <>
      <UsersSelectionToolbar
        selected={selected.length}
        onClear={() => onSelectedChange([])}
        onChangeLicence={() => setDialog('licence')}
        changeLicenceBlocked={permissions.changeLicenceBlocked(selected) ?? noLicence}
        onRemove={() => setRemoving(selected)}
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
        users={removing}
        organization={where}
        onClose={() => {
          setRemoving([]);
          onChanged();
        }}
        onRemoved={unselect}
      />
    </>
  );
}
