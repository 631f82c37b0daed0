import type { OrganizationUser } from '@allot/domain/users';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { formatCount } from '../../../lib/format';
import { useRemoveUsers } from '../api/remove-users';
import { SelectedNames } from './selected-names';

interface RemoveUsersModalProps {
  /** The users to remove; empty keeps the dialog closed. */
  users: OrganizationUser[];
  organization: { id: string; name: string };
  onClose: () => void;
  onRemoved: (ids: string[]) => void;
}

const plural = (count: number) => `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;

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
            : `${single ? single.name : plural(answer.removed.length)} removed from ${organization.name}.`) +
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
            : `Remove ${plural(users.length)}?`
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
                  {plural(users.length)}
                </Text>{' '}
                leave
              </>
            )}{' '}
            {organization.name}. Their credits go back to the shared pool of {organization.name}, and their
            licence seats are freed.
          </Text>
        )}
        {!single && <SelectedNames users={users} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            {invitation ? 'Keep the invitation' : 'Cancel'}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={remove.isPending}>
            {invitation ? 'Cancel invitation' : single ? 'Remove user' : `Remove ${plural(users.length)}`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
