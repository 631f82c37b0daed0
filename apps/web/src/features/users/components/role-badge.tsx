import { ROLE_LABEL } from '@allot/domain/roles';
import type { OrganizationUser } from '@allot/domain/users';
import { Badge } from '@mantine/core';

const ROLE_COLOR: Record<OrganizationUser['role'], string> = {
  system_admin: 'grape',
  organization_owner: 'indigo',
  organization_admin: 'teal',
  user: 'gray',
};

/** A member's role as the users lists show it: a badge, coloured by role. */
export function RoleBadge({ role }: { role: OrganizationUser['role'] }) {
  return (
    <Badge variant="light" color={ROLE_COLOR[role]} radius="sm">
      {ROLE_LABEL[role]}
    </Badge>
  );
}
