import type { OrganizationUser } from '@allot/domain/users';
import { ActionIcon, Menu } from '@mantine/core';
import {
  IconDots,
  IconExternalLink,
  IconKeyOff,
  IconMailForward,
  IconPencil,
  IconShieldCog,
  IconTrash,
  IconUserQuestion,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSendInvitationAgain } from '../hooks/use-send-invitation-again';

interface UserRowActionsProps {
  user: OrganizationUser;
  onEdit?: () => void;
  onChangeRole?: () => void;
  onRemove?: () => void;
  /** The organization whose pending invitation of this user may be sent again (manage_users there). */
  resendFrom?: string;
  /** Opens the product access panel ("Why can't this teacher use it?"). */
  onCheckAccess?: () => void;
  /** A system admin turns off the person's two-factor sign-in. */
  onResetTwoFactor?: () => void;
  /**
   * The person in their own organization's list, from a list of everyone below: what acts on that
   * organization as a whole (product access, seats, credit moves) is done there.
   */
  openIn?: { name: string; to: string };
}

/** The actions menu of one row: only the actions the caller may take on this user. */
export function UserRowActions({
  user,
  onEdit,
  onChangeRole,
  onRemove,
  resendFrom,
  onCheckAccess,
  onResetTwoFactor,
  openIn,
}: UserRowActionsProps) {
  const resend = useSendInvitationAgain();
  const canResend = resendFrom !== undefined && user.status === 'pending';
  if (!onEdit && !onChangeRole && !onRemove && !canResend && !onCheckAccess && !onResetTwoFactor && !openIn)
    return null;

  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={220}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          // 34 px: a touch target of at least 24 px (WCAG 2.2, issue 33).
          size="lg"
          aria-label={`Actions for ${user.name}`}
          loading={resend.sending}
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
            onClick={() => void resend.send(resendFrom, user)}
          >
            Resend invitation
          </Menu.Item>
        )}
        {onCheckAccess && (
          <Menu.Item leftSection={<IconUserQuestion size={16} aria-hidden="true" />} onClick={onCheckAccess}>
            Check product access
          </Menu.Item>
        )}
        {openIn && (
          <Menu.Item
            component={Link}
            to={openIn.to}
            leftSection={<IconExternalLink size={16} aria-hidden="true" />}
          >
            Open in {openIn.name}
          </Menu.Item>
        )}
        {onResetTwoFactor && (
          <Menu.Item leftSection={<IconKeyOff size={16} aria-hidden="true" />} onClick={onResetTwoFactor}>
            Reset two-factor
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
