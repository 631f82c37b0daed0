import { hasAnyPermission, hasPermissions, type Permission, type Role } from './roles';

/** The navigation items of spec §2 and the permission each needs (spec §6, menu visibility). */
export const NAV_ITEMS = [
  'home',
  'general_information',
  'licenses',
  'users',
  'sub_organizations',
  'requests',
  'credit_log',
  'audit_log',
  'sign_out',
] as const;
export type NavItem = (typeof NAV_ITEMS)[number];

type Rule = { all: readonly Permission[] } | { any: readonly Permission[] };

export const NAV_RULES: Record<NavItem, Rule> = {
  home: { all: [] },
  general_information: { all: [] },
  licenses: { all: ['manage_org_license'] },
  users: { all: ['manage_users'] },
  sub_organizations: { any: ['create_child_org', 'update_org', 'delete_org'] },
  // Requests up the tree (CONTRACT §11): asked and decided by those who allocate credits or seats.
  requests: { any: ['transfer_org_credits', 'manage_org_license'] },
  credit_log: { all: ['view_audit_logs'] },
  audit_log: { all: ['view_audit_logs'] },
  sign_out: { all: [] },
};

export function isNavItemVisible(
  item: NavItem,
  granted: { role: Role | null; permissions: readonly string[] },
): boolean {
  const rule = NAV_RULES[item];
  return 'all' in rule ? hasPermissions(rule.all, granted) : hasAnyPermission(rule.any, granted);
}
