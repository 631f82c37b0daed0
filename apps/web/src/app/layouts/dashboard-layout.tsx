import { ROLE_LABEL } from '@allot/domain/roles';
import { AppShell, Badge, Burger, Divider, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { Link, Outlet } from 'react-router';
import { AppFooter } from '../../components/app-footer';
import { Brand } from '../../components/brand';
import { useCurrentOrganization } from '../../features/organizations/api/use-current-organization';
import { OrganizationBreadcrumbs } from '../../features/organizations/components/organization-breadcrumbs';
import { PriceListLink } from '../../features/price-list/components/price-list-link';
import { PICKER_STATE } from '../../lib/home-link';
import { useSession } from '../../lib/session';
import { applyPermissionsAndRole } from '../guards/organization-loader';
import { DashboardNav } from './dashboard-nav';

/** Dashboard of one organization (spec §2): menu on the left, organization name on top, footer below. */
export function DashboardLayout() {
  const organization = useCurrentOrganization();
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);

  // Keep role and permissions in step when the organization is fetched again.
  useEffect(() => applyPermissionsAndRole(organization), [organization]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      footer={{ height: 44 }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap" miw={0}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Link
              to="/"
              state={PICKER_STATE}
              aria-label="Allot home"
              style={{ color: 'inherit', textDecoration: 'none' }}
            >
              <Brand />
            </Link>
            <Divider orientation="vertical" visibleFrom="xs" />
            <Title order={2} fz="lg" fw={600} lineClamp={1} visibleFrom="xs">
              {organization.name}
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap" visibleFrom="sm">
            <PriceListLink />
            <Text size="sm" c="dimmed" truncate="end" maw={260}>
              {session.userEmail}
            </Text>
            <Badge variant="light">{ROLE_LABEL[session.role]}</Badge>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm">
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap="xs">
            <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt={4}>
              Navigation
            </Text>
            <DashboardNav organizationId={organization.id} onNavigate={close} />
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <Stack gap="md">
          <OrganizationBreadcrumbs organization={organization} />
          <Outlet />
        </Stack>
      </AppShell.Main>

      <AppShell.Footer>
        <AppFooter />
      </AppShell.Footer>
    </AppShell>
  );
}
