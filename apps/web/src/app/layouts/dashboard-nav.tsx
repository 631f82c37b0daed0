import { isNavItemVisible, type NavItem } from '@allot/domain/navigation';
import { NavLink, Stack } from '@mantine/core';
import {
  IconBuildingCommunity,
  IconCertificate,
  IconHistory,
  IconHome,
  IconInfoCircle,
  IconListDetails,
  IconLogout,
  IconUserShield,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { useSignOut } from '../../features/auth/hooks/use-sign-out';
import { PICKER_STATE } from '../../lib/home-link';
import { useSession } from '../../lib/session';

interface LinkItem {
  item: Exclude<NavItem, 'sign_out'>;
  label: string;
  /** Relative to the organization; null for Home. */
  path: string | null;
  icon: ComponentType<{ size?: number; stroke?: number }>;
}

const LINKS: readonly LinkItem[] = [
  { item: 'home', label: 'Home', path: null, icon: IconHome },
  { item: 'general_information', label: 'General information', path: '', icon: IconInfoCircle },
  { item: 'licenses', label: 'Licenses', path: 'licenses', icon: IconCertificate },
  { item: 'users', label: 'Users', path: 'users', icon: IconUsers },
  {
    item: 'sub_organizations',
    label: 'Sub organizations',
    path: 'sub-organizations',
    icon: IconBuildingCommunity,
  },
  { item: 'credit_log', label: 'Credit log', path: 'credit-log', icon: IconListDetails },
  { item: 'audit_log', label: 'Audit log', path: 'audit-log', icon: IconHistory },
];

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The dashboard menu of spec §2, each item shown per the permission rules of spec §6. */
export function DashboardNav({
  organizationId,
  onNavigate,
}: {
  organizationId: string;
  onNavigate?: () => void;
}) {
  const session = useSession();
  const { pathname } = useLocation();
  const { signOut, pending } = useSignOut();
  const base = `/${encodeURIComponent(organizationId)}`;
  const current = trimSlash(pathname);

  return (
    <Stack component="nav" aria-label="Main" gap={4}>
      {LINKS.filter((link) => isNavItemVisible(link.item, session)).map((link) => {
        const to = link.path === null ? '/' : link.path ? `${base}/${link.path}` : base;
        const active =
          link.path === null ? false : link.path === '' ? current === base : current.startsWith(to);
        const Icon = link.icon;
        return (
          <NavLink
            key={link.item}
            component={Link}
            to={to}
            state={link.path === null ? PICKER_STATE : undefined}
            label={link.label}
            leftSection={<Icon size={18} stroke={1.6} />}
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={onNavigate}
            variant="light"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        );
      })}
      {/* One's own account, for phones too (the header's Account link is hidden there). */}
      <NavLink
        component={Link}
        to="/account"
        label="Account security"
        leftSection={<IconUserShield size={18} stroke={1.6} />}
        onClick={onNavigate}
        variant="light"
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
      />
      {isNavItemVisible('sign_out', session) && (
        <NavLink
          component="button"
          type="button"
          label="Sign out"
          leftSection={<IconLogout size={18} stroke={1.6} />}
          disabled={pending}
          onClick={() => void signOut()}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
      )}
    </Stack>
  );
}
