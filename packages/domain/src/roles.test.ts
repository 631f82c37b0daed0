import { describe, expect, it } from 'vitest';
import { isNavItemVisible } from './navigation';
import {
  assignableRoles,
  hasPanelAccess,
  hasPermissions,
  PERMISSIONS,
  permissionsOf,
  ROLE_PERMISSIONS,
  strongestRole,
} from './roles';

const as = (role: Parameters<typeof permissionsOf>[0]) => ({ role, permissions: permissionsOf(role) });

describe('permission matrix (CONTRACT §2)', () => {
  it('gives a system admin all eleven and a teacher none', () => {
    expect(ROLE_PERMISSIONS.system_admin).toHaveLength(11);
    expect(new Set(ROLE_PERMISSIONS.system_admin)).toEqual(new Set(PERMISSIONS));
    expect(ROLE_PERMISSIONS.user).toEqual([]);
  });

  it('keeps system-only powers from owners and deletion from admins', () => {
    for (const p of ['create_root_org', 'allocate_system_credits'] as const) {
      expect(ROLE_PERMISSIONS.organization_owner).not.toContain(p);
    }
    expect(ROLE_PERMISSIONS.organization_owner).toContain('delete_org');
    expect(ROLE_PERMISSIONS.organization_admin).not.toContain('delete_org');
    expect(ROLE_PERMISSIONS.organization_admin).not.toContain('manage_org_integration');
  });
});

describe('hasPermissions', () => {
  it('requires every permission asked for', () => {
    const admin = as('organization_admin');
    expect(hasPermissions(['manage_users', 'view_audit_logs'], admin)).toBe(true);
    expect(hasPermissions(['manage_users', 'delete_org'], admin)).toBe(false);
    expect(hasPermissions([], as('user'))).toBe(true);
  });

  it('lets a system admin pass every check, even with an empty permission list', () => {
    expect(hasPermissions(['create_root_org', 'delete_org'], { role: 'system_admin', permissions: [] })).toBe(
      true,
    );
  });
});

describe('roles', () => {
  it('picks the strongest role by rank', () => {
    expect(strongestRole(['user', 'organization_admin', 'organization_owner'])).toBe('organization_owner');
    expect(strongestRole(['user'])).toBe('user');
    expect(strongestRole([])).toBeNull();
  });

  it('offers the caller its own level and lower, never system admin', () => {
    expect(assignableRoles('system_admin')).toEqual(['organization_owner', 'organization_admin', 'user']);
    expect(assignableRoles('organization_owner')).toEqual([
      'organization_owner',
      'organization_admin',
      'user',
    ]);
    expect(assignableRoles('organization_admin')).toEqual(['organization_admin', 'user']);
    expect(assignableRoles('user')).toEqual(['user']);
    expect(assignableRoles(null)).toEqual([]);
  });

  it('keeps teachers out of the panel', () => {
    expect(hasPanelAccess('user')).toBe(false);
    expect(hasPanelAccess(null)).toBe(false);
    expect(hasPanelAccess('organization_admin')).toBe(true);
  });
});

describe('menu visibility (spec §6)', () => {
  it('shows an admin everything but nothing an admin lacks', () => {
    const admin = as('organization_admin');
    for (const item of [
      'home',
      'general_information',
      'licenses',
      'users',
      'sub_organizations',
      'requests',
      'credit_log',
      'sign_out',
    ] as const) {
      expect(isNavItemVisible(item, admin), item).toBe(true);
    }
  });

  it('shows sub-organizations for any one of its permissions', () => {
    const onlyDelete = { role: null, permissions: ['delete_org'] };
    expect(isNavItemVisible('sub_organizations', onlyDelete)).toBe(true);
    expect(isNavItemVisible('licenses', onlyDelete)).toBe(false);
    expect(isNavItemVisible('users', onlyDelete)).toBe(false);
  });

  it('shows requests to those who allocate credits or seats (CONTRACT §11)', () => {
    expect(isNavItemVisible('requests', { role: null, permissions: ['manage_org_license'] })).toBe(true);
    expect(isNavItemVisible('requests', { role: null, permissions: ['transfer_org_credits'] })).toBe(true);
    expect(isNavItemVisible('requests', { role: null, permissions: ['delete_org'] })).toBe(false);
  });

  it('shows a permission-less caller only home, general information and sign out', () => {
    const none = { role: 'user' as const, permissions: [] };
    const visible = (
      [
        'home',
        'general_information',
        'licenses',
        'users',
        'sub_organizations',
        'requests',
        'credit_log',
        'sign_out',
      ] as const
    ).filter((i) => isNavItemVisible(i, none));
    expect(visible).toEqual(['home', 'general_information', 'sign_out']);
  });
});
