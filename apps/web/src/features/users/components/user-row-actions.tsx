import type { OrganizationUser } from '@allot/domain/users';
import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, IconPencil, IconShieldCog, IconTrash } from '@tabler/icons-react';

interface UserRowActionsProps {
  user: OrganizationUser;
  onEdit?: () => void;
  onChangeRole?: () => void;
  onRemove?: () => void;
}

/** The actions menu of one row: only the actions the caller may take on this user. */
export function UserRowActions({ user, onEdit, onChangeRole, onRemove }: UserRowActionsProps) {
  if (!onEdit && !onChangeRole && !onRemove) return null;
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={180}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${user.name}`}>
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
        {onRemove && (
          <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden="true" />} onClick={onRemove}>
            {user.status === 'pending' ? 'Cancel invitation' : 'Remove'}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
