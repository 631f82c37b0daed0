import type { OrganizationUser } from '@allot/domain/users';
import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconMailForward, IconPencil, IconShieldCog, IconTrash } from '@tabler/icons-react';
import { errorText } from '../../../lib/api-error';
import { useResendInvitation } from '../api/resend-invitation';

interface UserRowActionsProps {
  user: OrganizationUser;
  onEdit?: () => void;
  onChangeRole?: () => void;
  onRemove?: () => void;
  /** The organization whose pending invitation of this user may be sent again (manage_users there). */
  resendFrom?: string;
}

/** The actions menu of one row: only the actions the caller may take on this user. */
export function UserRowActions({ user, onEdit, onChangeRole, onRemove, resendFrom }: UserRowActionsProps) {
  const resend = useResendInvitation();
  const canResend = resendFrom !== undefined && user.status === 'pending';
  if (!onEdit && !onChangeRole && !onRemove && !canResend) return null;

  async function sendAgain(organizationId: string) {
    try {
      await resend.mutateAsync({ organizationId, userId: user.id });
      notifications.show({
        color: 'green',
        title: 'Invitation sent',
        message: `Invitation sent to ${user.email}`,
      });
    } catch (cause) {
      notifications.show({ color: 'red', title: 'The invitation was not sent', message: errorText(cause) });
    }
  }

  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={200}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Actions for ${user.name}`}
          loading={resend.isPending}
        >
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {onEdit && (
          <Menu.Item leftSection={<IconPencil size={16} aria-hidden="true" />} onClick={onEdit}>
            Edit
          </Menu.Item>
        )}
        {onChangeRole && (
          <Menu.Item leftSection={<IconShieldCog size={16} aria-hidden="true" />} onClick={onChangeRole}>
            Change role
          </Menu.Item>
        )}
        {canResend && (
          <Menu.Item
            leftSection={<IconMailForward size={16} aria-hidden="true" />}
            onClick={() => void sendAgain(resendFrom)}
          >
            Resend invitation
          </Menu.Item>
        )}
        {onRemove && (
          <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden="true" />} onClick={onRemove}>
            {user.status === 'pending' ? 'Cancel invitation' : 'Remove'}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
