/** Roles, ranks, labels and the permission matrix of CONTRACT §2: the one source for server and web. */

export const ROLES = ['system_admin', 'organization_owner', 'organization_admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'create_root_org',
  'create_child_org',
  'update_org',
  'delete_org',
  'assign_roles',
  'allocate_system_credits',
  'transfer_org_credits',
  'manage_users',
  'view_audit_logs',
  'manage_org_license',
  'manage_org_integration',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Lower rank is stronger. */
export const ROLE_RANK: Record<Role, number> = {
  system_admin: 0,
  organization_owner: 1,
  organization_admin: 2,
  user: 3,
};

export const ROLE_LABEL: Record<Role, string> = {
  system_admin: 'System admin',
  organization_owner: 'Owner',
  organization_admin: 'Admin',
  user: 'Teacher',
};

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  system_admin: PERMISSIONS,
  organization_owner: [
    'create_child_org',
    'update_org',
    'delete_org',
    'assign_roles',
    'transfer_org_credits',
    'manage_users',
    'view_audit_logs',
    'manage_org_license',
    'manage_org_integration',
  ],
  organization_admin: [
    'create_child_org',
    'update_org',
    'assign_roles',
    'transfer_org_credits',
    'manage_users',
    'view_audit_logs',
    'manage_org_license',
  ],
  user: [],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The strongest (lowest rank) of the given roles, or null when there is none. */
export function strongestRole(roles: Iterable<Role>): Role | null {
  let best: Role | null = null;
  for (const role of roles) {
    if (best === null || ROLE_RANK[role] < ROLE_RANK[best]) best = role;
  }
  return best;
}

export function permissionsOf(role: Role | null): Permission[] {
  return role ? [...ROLE_PERMISSIONS[role]] : [];
}

/**
 * True when every required permission is granted. A system admin passes every check.
 * `granted` is either a role or the list of permission names the server sent.
 */
export function hasPermissions(
  required: readonly Permission[],
  granted: { role: Role | null; permissions: readonly string[] },
): boolean {
  if (granted.role === 'system_admin') return true;
  return required.every((p) => granted.permissions.includes(p));
}

/** True when at least one of the permissions is granted (the sub-organizations menu rule). */
export function hasAnyPermission(
  anyOf: readonly Permission[],
  granted: { role: Role | null; permissions: readonly string[] },
): boolean {
  if (granted.role === 'system_admin') return true;
  return anyOf.some((p) => granted.permissions.includes(p));
}

/** Roles a caller may hand out: its own rank and lower, never system admin. */
export function assignableRoles(callerRole: Role | null): Role[] {
  if (!callerRole) return [];
  return ROLES.filter((r) => r !== 'system_admin' && ROLE_RANK[r] >= ROLE_RANK[callerRole]);
}

/** Roles that may use the panel at all: teachers may not. */
export function hasPanelAccess(role: Role | null): boolean {
  return role !== null && role !== 'user';
}

/**
 * The roles a membership can hold that give panel access (owners and admins): those of the matrix with any
 * permission. Queries that look for "someone who manages this organization" use this list (the server's
 * `MANAGING_ROLES_SQL`), never their own.
 */
export const MANAGING_ROLES: readonly Role[] = ROLES.filter(
  (role) => role !== 'system_admin' && ROLE_PERMISSIONS[role].length > 0,
);
