import type { OrganizationUser } from '@allot/domain/users';
import { Button, List, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useRemoveUsers } from '../api/remove-users';
import { SelectedNames } from './selected-names';

interface RemoveUsersModalProps {
  /** The users to remove; empty keeps the dialog closed. */
  users: OrganizationUser[];
  organization: { id: string; name: string };
  onClose: () => void;
  onRemoved: (ids: string[]) => void;
}

const countUsers = (count: number) => formatCountOf(count, 'user', 'users');

/** Confirmation before POST /api/user/remove; a refusal is shown in the dialog. */
export function RemoveUsersModal({ users: asked, organization, onClose, onRemoved }: RemoveUsersModalProps) {
  const remove = useRemoveUsers();
  // The last users asked about stay on screen while the dialog closes (adjusted while rendering).
  const [users, setUsers] = useState(asked);
  if (asked.length > 0 && asked !== users) setUsers(asked);
  const [error, setError] = useState<string | null>(null);
  const single = users.length === 1 ? users[0] : undefined;
  // One person not in yet: cancelling the invitation is what removing means.
  const invitation = single?.status === 'pending';
  // What the server moves (remove-users.ts): the credits of members who joined go to the shared pool
  // (an invited person's never were the organization's); every seat held, joined or invited, is freed.
  const invited = users.filter((u) => u.status === 'pending');
  const credits = users
    .filter((u) => u.status !== 'pending')
    .reduce((sum, u) => sum + Math.max(0, u.credits), 0);
  const seats = users.filter((u) => u.licence !== null).length;

  function close() {
    setError(null);
    remove.reset();
    onClose();
  }

  async function confirm() {
    setError(null);
    try {
      const answer = await remove.mutateAsync({
        organizationId: organization.id,
        userIds: users.map((u) => u.id),
      });
      notifications.show({
        color: 'green',
        title: invitation ? 'Invitation cancelled' : single ? 'User removed' : 'Users removed',
        message:
          (invitation
            ? `${single?.name} will not join ${organization.name}.`
            : `${single ? single.name : countUsers(answer.removed.length)} removed from ${organization.name}.`) +
          (answer.creditsReturned > 0
            ? ` ${formatCount(answer.creditsReturned)} credits went back to the shared pool.`
            : ''),
      });
      onRemoved(answer.removed);
      close();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  return (
    <Modal
      opened={asked.length > 0}
      onClose={close}
      title={
        invitation
          ? `Cancel the invitation of ${single?.name}?`
          : single
            ? `Remove ${single.name}?`
            : `Remove ${countUsers(users.length)}?`
      }
      centered
    >
      <Stack gap="md">
        {error && <FormAlert title="Not removed">{error}</FormAlert>}
        {invitation ? (
          <Text size="sm">
            <Text span fw={600} inherit>
              {single?.name}
            </Text>{' '}
            will not join {organization.name}: the code of the invitation stops working, and the licence seat
            held for them is freed.
          </Text>
        ) : (
          <>
            <Text size="sm">
              {single ? (
                <>
                  <Text span fw={600} inherit>
                    {single.name}
                  </Text>{' '}
                  leaves
                </>
              ) : (
                <>
                  <Text span fw={600} inherit>
                    {countUsers(users.length)}
                  </Text>{' '}
                  leave
                </>
              )}{' '}
              {organization.name}. Their accounts stay; what they hold here is given back:
            </Text>
            <List size="sm" spacing={6} aria-label="What the removal does">
              <List.Item>
                <Text span fw={600} inherit>
                  Credits:
                </Text>{' '}
                {credits > 0
                  ? `${formatCountOf(credits, 'credit goes', 'credits go')} back to the shared pool of ${organization.name}.`
                  : 'they hold no credits.'}
              </List.Item>
              <List.Item>
                <Text span fw={600} inherit>
                  Licence seats:
                </Text>{' '}
                {seats > 0
                  ? `${formatCountOf(seats, 'seat is', 'seats are')} freed.`
                  : 'they hold no licence seat.'}
              </List.Item>
              {invited.length > 0 && (
                <List.Item>
                  <Text span fw={600} inherit>
                    Invitations:
                  </Text>{' '}
                  {formatCount(invited.length)} of them {invited.length === 1 ? 'has' : 'have'} not joined
                  yet:
                  {invited.length === 1 ? ' the invitation is' : ' their invitations are'} cancelled, and
                  their credits stay with them.
                </List.Item>
              )}
            </List>
          </>
        )}
        {!single && <SelectedNames users={users} />}
        <DialogFoot>
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            {invitation ? 'Keep the invitation' : 'Cancel'}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={remove.isPending}>
            {invitation ? 'Cancel invitation' : single ? 'Remove user' : `Remove ${countUsers(users.length)}`}
          </Button>
        </DialogFoot>
      </Stack>
    </Modal>
  );
}
