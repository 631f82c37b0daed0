import type { Organization } from '@allot/domain/organizations';
import { hasPermissions, type Permission, type Role } from '@allot/domain/roles';
import { useSession } from '../../../lib/session';

export interface Granted {
  role: Role | null;
  permissions: readonly string[];
}

/**
 * What the caller may do in an organization: its permissionsAndRole when loaded, else the session's
 * (which the organization loader fills from that same permissionsAndRole). A role on an organization
 * applies to every descendant, so the same answer holds for the rows of its sub-organizations table.
 */
export function useOrganizationPermissions(organization: Organization | undefined) {
  const session = useSession();
  const granted: Granted = organization?.permissionsAndRole
    ? {
        role: organization.permissionsAndRole.role.name,
        permissions: organization.permissionsAndRole.permissions.map((p) => p.name),
      }
    : { role: session.role, permissions: session.permissions };
  return {
    role: granted.role,
    can: (...required: Permission[]) => hasPermissions(required, granted),
  };
}
