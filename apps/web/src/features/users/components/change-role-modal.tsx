import { ROLE_LABEL } from '@allot/domain/roles';
import type { MemberRole, OrganizationUser } from '@allot/domain/users';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { useUpdateUserRole } from '../api/update-user-role';
import { OwnerChangeNotice } from './owner-change-notice';
import { RoleSelect } from './role-select';

/** "an Admin", "an Owner", "a Teacher". */
function withArticle(label: string): string {
  return `${/^[AEIOU]/.test(label) ? 'an' : 'a'} ${label}`;
}

interface ChangeRoleModalProps {
  /** The user whose role changes; null keeps the dialog closed. */
  user: OrganizationUser | null;
  organization: { id: string; name: string; adminName: string | null };
  roles: readonly MemberRole[];
  onClose: () => void;
}

/**
 * Change the role of a member (POST /api/user/{id}/update/role). Choosing Owner asks for confirmation
 * first, naming the current owner, who becomes an admin (spec §4).
 */
export function ChangeRoleModal({ user, organization, roles, onClose }: ChangeRoleModalProps) {
  return (
    <Modal
      opened={user !== null}
      onClose={onClose}
      title={user ? `Change the role of ${user.name}` : 'Change role'}
      size="md"
      centered
    >
      {user && (
        <ChangeRoleForm
          key={user.id}
          user={user}
          organization={organization}
          roles={roles}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function ChangeRoleForm({
  user,
  organization,
  roles,
  onClose,
}: ChangeRoleModalProps & { user: OrganizationUser }) {
  const update = useUpdateUserRole();
  const current = user.role === 'system_admin' ? null : user.role;
  const [role, setRole] = useState<MemberRole | null>(current);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(next: MemberRole) {
    setError(null);
    try {
      await update.mutateAsync({ userId: user.id, role: next, organizationId: organization.id });
      notifications.show({
        color: 'green',
        title: 'Role changed',
        message:
          next === 'organization_owner' && organization.adminName
            ? `${user.name} is now the owner; ${organization.adminName} is an admin.`
            : `${user.name} is now ${withArticle(ROLE_LABEL[next])}.`,
      });
      onClose();
    } catch (cause) {
      setError(errorText(cause));
    }
  }

  if (confirming && role === 'organization_owner') {
    return (
      <Stack gap="md">
        {error && <FormAlert title="Role not changed">{error}</FormAlert>}
        <Text size="sm" fw={600}>
          Make {user.name} the owner of {organization.name}?
        </Text>
        <OwnerChangeNotice
          organizationName={organization.name}
          currentOwner={organization.adminName}
          newOwner={user.name}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)} disabled={update.isPending}>
            Back
          </Button>
          <Button color="orange" loading={update.isPending} onClick={() => void save('organization_owner')}>
            Make owner
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form
      noValidate
      aria-label="Change role"
      onSubmit={(event) => {
        event.preventDefault();
        if (!role || role === current) return;
        if (role === 'organization_owner') setConfirming(true);
        else void save(role);
      }}
    >
      <Stack gap="md">
        {error && <FormAlert title="Role not changed">{error}</FormAlert>}
        <Text size="sm" c="dimmed">
          {user.email} is {withArticle(ROLE_LABEL[user.role])} of {organization.name}.
        </Text>
        <RoleSelect label="New role" roles={roles} value={role} onChange={setRole} />
        <DialogActions
          onCancel={onClose}
          busy={update.isPending}
          submitLabel={role === 'organization_owner' && role !== current ? 'Continue' : 'Change role'}
          submitDisabled={!role || role === current}
        />
      </Stack>
    </form>
  );
}
