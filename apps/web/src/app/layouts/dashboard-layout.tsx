import { isNavItemVisible } from '@allot/domain/navigation';
import { ROLE_LABEL } from '@allot/domain/roles';
import {
  AppShell,
  Badge,
  Box,
  Burger,
  Divider,
  Group,
  Indicator,
  ScrollArea,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useEffect } from 'react';
import { Link, Outlet } from 'react-router';
import { Brand } from '../../components/brand';
import { AccountLink } from '../../features/auth/components/account-link';
import { MailNotSentBanner } from '../../features/mail/components/mail-not-sent-banner';
import { useCurrentOrganization } from '../../features/organizations/api/use-current-organization';
import { OrganizationBreadcrumbs } from '../../features/organizations/components/organization-breadcrumbs';
import { PriceListLink } from '../../features/price-list/components/price-list-link';
import { AppFooter } from '../../features/public-config/components/app-footer';
import { useAbove } from '../../features/requests/api/get-above';
import { PICKER_STATE } from '../../lib/home-link';
import { useSession } from '../../lib/session';
import { applyPermissionsAndRole } from '../guards/organization-loader';
import classes from './dashboard-layout.module.css';
import { DashboardNav } from './dashboard-nav';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

/** Below Mantine's `sm` breakpoint (48em): phones. */
const PHONE = '(max-width: 47.99em)';

/**
 * Dashboard of one organization (spec §2): menu on the left, organization name on top, footer below.
 * From `sm` up the footer is fixed to the bottom of the window (one line there); on a phone, where its
 * links would wrap over the content, it follows the content instead (decision 020).
 */
export function DashboardLayout() {
  const organization = useCurrentOrganization();
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  // The menu's count of open requests (dashboard-nav.tsx), on the burger too: a phone's menu is closed.
  const { data: above } = useAbove(organization.id, isNavItemVisible('requests', session));
  const openRequests = above?.openRequests ?? 0;

  // Keep role and permissions in step when the organization is fetched again.
  useEffect(() => applyPermissionsAndRole(organization), [organization]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      footer={phone ? undefined : { height: 44 }}
      padding={phone ? 'sm' : 'lg'}
      className={phone ? classes.phoneRoot : undefined}
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap" miw={0}>
            <Indicator
              hiddenFrom="sm"
              disabled={openRequests === 0 || opened}
              color="red"
              size={10}
              offset={3}
            >
              <Burger
                opened={opened}
                onClick={toggle}
                size="sm"
                aria-label={
                  openRequests > 0
                    ? `Toggle navigation, ${openRequests} open ${openRequests === 1 ? 'request' : 'requests'}`
                    : 'Toggle navigation'
                }
                aria-expanded={opened}
                aria-controls="dashboard-navbar"
              />
            </Indicator>
            <Link
              to="/"
              state={PICKER_STATE}
              aria-label="Allot home"
              style={{ color: 'inherit', textDecoration: 'none' }}
            >
              <Brand markOnlyOnPhone />
            </Link>
            <Divider orientation="vertical" visibleFrom="xs" />
            {/* On a phone too (issue 33): which organization this is, on one line. */}
            <Title order={2} fz={phone ? 'md' : 'lg'} fw={600} lineClamp={1} miw={0}>
              {organization.name}
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <PriceListLink />
            <AccountLink />
            <Text size="sm" c="dimmed" truncate="end" maw={260} visibleFrom="sm">
              {session.userEmail}
            </Text>
            <Badge variant="light" visibleFrom="sm">
              {ROLE_LABEL[session.role]}
            </Badge>
          </Group>
        </Group>
      </AppShell.Header>

      {/* On a phone the closed menu is only moved out of sight: inert keeps its links out of the tab order. */}
      <AppShell.Navbar p="sm" id="dashboard-navbar" inert={phone && !opened}>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap="xs">
            {/* On a phone the header has no room for who is signed in: the menu says it (issue 33). */}
            <Box hiddenFrom="sm" px="sm" pt={4} pb="xs">
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                Signed in as
              </Text>
              <Group gap="xs" wrap="nowrap" mt={4}>
                <Text size="sm" truncate="end" miw={0}>
                  {session.userEmail}
                </Text>
                <Badge variant="light" style={{ flexShrink: 0 }}>
                  {ROLE_LABEL[session.role]}
                </Badge>
              </Group>
            </Box>
            <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt={4}>
              Navigation
            </Text>
            <DashboardNav organizationId={organization.id} onNavigate={close} />
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} className={phone ? classes.phoneMain : undefined}>
        <Stack gap="md">
          <MailNotSentBanner />
          <OrganizationBreadcrumbs organization={organization} />
          <Outlet />
        </Stack>
      </AppShell.Main>

      {phone && (
        <Box component="footer" className={classes.phoneFooter}>
          <AppFooter />
        </Box>
      )}
      {!phone && (
        <AppShell.Footer>
          <AppFooter />
        </AppShell.Footer>
      )}
    </AppShell>
  );
}
