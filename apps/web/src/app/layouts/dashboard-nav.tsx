import { isNavItemVisible, type NavItem } from '@allot/domain/navigation';
import { Badge, NavLink, Stack } from '@mantine/core';
import {
  IconBuildingCommunity,
  IconCertificate,
  IconHistory,
  IconHome,
  IconInbox,
  IconInfoCircle,
  IconListDetails,
  IconLogout,
  IconMail,
  IconUserShield,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { useSignOut } from '../../features/auth/hooks/use-sign-out';
import { useAbove } from '../../features/requests/api/get-above';
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
  { item: 'requests', label: 'Requests', path: 'requests', icon: IconInbox },
  { item: 'credit_log', label: 'Credit log', path: 'credit-log', icon: IconListDetails },
  { item: 'audit_log', label: 'Audit log', path: 'audit-log', icon: IconHistory },
];

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** A menu item for a page outside the organization (one's account, the mail outbox). */
function PageLink({
  to,
  label,
  icon: Icon,
  onNavigate,
}: {
  to: string;
  label: string;
  icon: LinkItem['icon'];
  onNavigate: (() => void) | undefined;
}) {
  return (
    <NavLink
      component={Link}
      to={to}
      label={label}
      leftSection={<Icon size={18} stroke={1.6} />}
      onClick={onNavigate}
      variant="light"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
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
  // The open requests of the organizations below, waiting for an answer here (CONTRACT §11): on the menu, so
  // that an admin above sees there is something to decide from any screen; asked again every minute.
  const { data: above } = useAbove(organizationId, isNavItemVisible('requests', session), true);
  const openRequests = above?.openRequests ?? 0;

  return (
    <Stack component="nav" aria-label="Main" gap={4}>
      {LINKS.filter((link) => isNavItemVisible(link.item, session)).map((link) => {
        const to = link.path === null ? '/' : link.path ? `${base}/${link.path}` : base;
        const active =
          link.path === null ? false : link.path === '' ? current === base : current.startsWith(to);
        const Icon = link.icon;
        const count = link.item === 'requests' ? openRequests : 0;
        return (
          <NavLink
            key={link.item}
            component={Link}
            to={to}
            state={link.path === null ? PICKER_STATE : undefined}
            label={link.label}
            aria-label={count > 0 ? `${link.label}, ${count} open` : undefined}
            leftSection={<Icon size={18} stroke={1.6} />}
            rightSection={
              count > 0 ? (
                <Badge size="sm" color="red" variant="filled" aria-hidden="true">
                  {count > 99 ? '99+' : count}
                </Badge>
              ) : undefined
            }
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={onNavigate}
            variant="light"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        );
      })}
      {/* One's own account, for phones too (the header's Account link is hidden there). */}
      <PageLink to="/account" label="Account security" icon={IconUserShield} onNavigate={onNavigate} />
      {/* What this installation mailed (issue 33): otherwise reached only from the banner shown without SMTP. */}
      {session.role === 'system_admin' && (
        <PageLink to="/mail-outbox" label="Mail outbox" icon={IconMail} onNavigate={onNavigate} />
      )}
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
