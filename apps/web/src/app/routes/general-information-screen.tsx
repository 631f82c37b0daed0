import { APP_MSG } from '@allot/domain/messages';
import { ORGANIZATION_TYPE_LABEL } from '@allot/domain/organizations';
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  IconArrowsExchange,
  IconLock,
  IconPencil,
  IconPlus,
  IconShare,
  IconShoppingCart,
  IconTrash,
} from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PermissionNote } from '../../components/permission-note';
import { ReasonedButton } from '../../components/reasoned-button';
import { AllocateSystemCreditsModal } from '../../features/credits/components/allocate-system-credits-modal';
import { ManagePoolsModal } from '../../features/credits/components/manage-pools-modal';
import { CreditAlertsSection } from '../../features/insights/components/credit-alerts-section';
import { CreditUseSection } from '../../features/insights/components/credit-use-section';
import { IntegrationsSection } from '../../features/integration/components/integrations-section';
import { BuyCreditsModal } from '../../features/invoices/components/buy-credits-modal';
import { useOrganizations } from '../../features/organizations/api/get-organizations';
import { useParentOrganizations } from '../../features/organizations/api/get-parent-organizations';
import { useCurrentOrganization } from '../../features/organizations/api/use-current-organization';
import { CreditPoolCard } from '../../features/organizations/components/credit-pool-card';
import { DeleteOrganizationModal } from '../../features/organizations/components/delete-organization-modal';
import { EditOrganizationModal } from '../../features/organizations/components/edit-organization-modal';
import { SignInSecurityCard } from '../../features/organizations/components/sign-in-security-card';
import { useOrganizationPermissions } from '../../features/organizations/hooks/use-organization-permissions';
import { ManagedAboveCard } from '../../features/requests/components/managed-above-card';
import { deleteBlocked } from '../../lib/delete-blocked';
import { PICKER_STATE } from '../../lib/home-link';
import { useTwoFactorStatus } from '../../lib/two-factor-status';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

const notSet = (
  <Text span c="dimmed" fs="italic" inherit>
    Not set
  </Text>
);

const noOwner = (
  <Text span c="dimmed" fs="italic" inherit>
    No owner
  </Text>
);

/** Deleting this organization, at the end of the page as consoles put it; greyed out with the reason. */
function DangerZone({
  organization,
  isRoot,
  reason,
  onDelete,
}: {
  organization: { name: string };
  isRoot: boolean;
  reason: string | undefined;
  onDelete: () => void;
}) {
  return (
    <Card
      component="section"
      aria-labelledby="danger-heading"
      withBorder
      style={{ borderColor: 'var(--mantine-color-red-3)' }}
    >
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={4} style={{ flex: '1 1 320px' }}>
          <Title order={2} fz="h4" id="danger-heading">
            Delete organization
          </Title>
          <Text size="sm" c="dimmed">
            {isRoot
              ? `Deletes ${organization.name}: its members lose their role in it, its credits go back to the system and its licences end.`
              : `Deletes ${organization.name}: its members lose their role in it, its credits and licence seats go back to the organization above it.`}
          </Text>
          {reason && (
            <Text size="sm" c="orange.9">
              {reason}
            </Text>
          )}
        </Stack>
        <ReasonedButton
          reason={reason}
          color="red"
          variant="outline"
          leftSection={<IconTrash size={16} aria-hidden="true" />}
          onClick={onDelete}
        >
          Delete organization
        </ReasonedButton>
      </Group>
    </Card>
  );
}

/**
 * General information (spec §2): the organization's details and its two credit pools; with
 * manage_org_integration, its integration keys and daily limit (issue 15); its sign-in security (decision 015).
 */
export function GeneralInformationScreen() {
  const organization = useCurrentOrganization();
  useDocumentTitle(`General information · ${organization.name} · Allot`);
  const { can, role } = useOrganizationPermissions(organization);
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<'pools' | 'allocate' | 'buy' | 'delete' | null>(null);
  const isRoot = organization.parentOrganizationId === null;
  const { data: parents } = useParentOrganizations(organization.id);
  const { data: mine } = useOrganizations();
  const { data: twoFactor } = useTwoFactorStatus();
  const navigate = useNavigate();

  const closeDialog = () => setDialog(null);
  const pools = organization.credits;

  // Resolves the promise of leave() once this screen is gone (see below).
  const onUnmount = useRef<(() => void) | null>(null);
  useEffect(() => () => onUnmount.current?.(), []);

  /**
   * Once this organization is deleted, its screen must go: to the parent's sub-organizations when the caller
   * may open the parent (a role on it or above; a system admin), else to the organization picker. Resolves
   * when this screen has unmounted (the router renders the next one in a transition, after `navigate`
   * resolves): only then are the deleted organization's queries dropped, so nothing on screen asks for it.
   */
  async function leave() {
    const parent = parents?.at(-1);
    const mineIds = new Set(mine?.map((o) => o.id));
    const parentOpen = role === 'system_admin' || (parents ?? []).some((p) => mineIds.has(p.id));
    const gone = new Promise<void>((resolve) => {
      onUnmount.current = resolve;
      setTimeout(resolve, 5_000); // never keep the dialog waiting on it
    });
    if (parent && parentOpen) await navigate(`/${encodeURIComponent(parent.id)}/sub-organizations`);
    else await navigate('/', { state: PICKER_STATE });
    await gone;
  }

  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} fz="h2">
        General information
      </Title>

      <Card component="section" aria-labelledby="details-heading">
        <Group justify="space-between" align="center" mb="md">
          <Title order={2} fz="h4" id="details-heading">
            Organization details
          </Title>
          {can('update_org') && (
            <Button
              variant="default"
              size="sm"
              leftSection={<IconPencil size={16} aria-hidden="true" />}
              onClick={() => setEditing(true)}
            >
              Edit
            </Button>
          )}
        </Group>
        <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 3 }} spacing="lg" verticalSpacing="md" m={0}>
          <Field label="Name">{organization.name}</Field>
          <Field label="Type">{ORGANIZATION_TYPE_LABEL[organization.type]}</Field>
          <Field label="Phone">{organization.phoneNumber || notSet}</Field>
          {/* adminName/adminEmail are the owner's (CONTRACT §4): an organization may have none. */}
          <Field label="Owner name">
            {organization.adminName ?? (organization.adminEmail ? notSet : noOwner)}
          </Field>
          <Field label="Owner email">{organization.adminEmail ?? noOwner}</Field>
        </SimpleGrid>
      </Card>

      <ManagedAboveCard organization={organization} />

      <Stack gap="sm" component="section" aria-labelledby="credits-heading">
        <Group justify="space-between" align="center">
          <Title order={2} fz="h4" id="credits-heading">
            Credits
          </Title>
          <Group gap="sm">
            {pools && can('allocate_system_credits') && (
              <Button
                variant="default"
                leftSection={<IconPlus size={16} aria-hidden="true" />}
                onClick={() => setDialog('allocate')}
              >
                Allocate credits
              </Button>
            )}
            {pools && can('transfer_org_credits') && (
              <Button
                variant="default"
                leftSection={<IconArrowsExchange size={16} aria-hidden="true" />}
                onClick={() => setDialog('pools')}
              >
                Manage credits
              </Button>
            )}
            {can('transfer_org_credits') && (
              <Button
                variant="default"
                leftSection={<IconShoppingCart size={16} aria-hidden="true" />}
                onClick={() => setDialog('buy')}
              >
                Buy more credits
              </Button>
            )}
          </Group>
        </Group>
        {organization.credits ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <CreditPoolCard
              label="Shared pool"
              value={organization.credits.shared}
              hint="Teachers of the organization draw from it when their own credits run out."
              icon={<IconShare size={22} />}
            />
            <CreditPoolCard
              label="Protected pool"
              value={organization.credits.protected}
              hint="Reserved for allocation by admins."
              icon={<IconLock size={22} />}
            />
          </SimpleGrid>
        ) : (
          <Text c="dimmed">The credit pools of this organization could not be loaded.</Text>
        )}
      </Stack>

      {can('view_audit_logs') && (
        <>
          <CreditUseSection organization={{ id: organization.id, name: organization.name }} />
          <CreditAlertsSection organization={{ id: organization.id, name: organization.name }} />
        </>
      )}

      {can('manage_org_integration') ? (
        <IntegrationsSection organization={{ id: organization.id, name: organization.name }} />
      ) : (
        <PermissionNote label="Integrations">
          Integrations: only an owner can manage the classroom product's keys and the daily limit of{' '}
          {organization.name}.
        </PermissionNote>
      )}

      <SignInSecurityCard organization={organization} role={role} ownTwoFactorOn={twoFactor?.enabled} />

      {!can('delete_org') && (
        <PermissionNote label="Delete organization">
          {isRoot ? APP_MSG.rootDeleteSystemAdminOnly : `Only an owner can delete ${organization.name}.`}
        </PermissionNote>
      )}
      {can('delete_org') && (
        <DangerZone
          organization={organization}
          isRoot={isRoot}
          // A top-level organization first: for anyone but a system admin no step makes it deletable.
          reason={
            isRoot && role !== 'system_admin'
              ? APP_MSG.rootDeleteSystemAdminOnly
              : deleteBlocked(organization)
          }
          onDelete={() => setDialog('delete')}
        />
      )}

      <EditOrganizationModal organization={editing ? organization : null} onClose={() => setEditing(false)} />
      <DeleteOrganizationModal
        organization={dialog === 'delete' ? organization : null}
        parentName={isRoot ? null : (parents?.at(-1)?.name ?? 'its parent organization')}
        onClose={closeDialog}
        leave={leave}
      />
      <BuyCreditsModal opened={dialog === 'buy'} onClose={closeDialog} organization={organization} />
      {pools && (
        <>
          <ManagePoolsModal
            opened={dialog === 'pools'}
            onClose={closeDialog}
            organization={{ id: organization.id, name: organization.name, credits: pools }}
          />
          <AllocateSystemCreditsModal
            opened={dialog === 'allocate'}
            onClose={closeDialog}
            organization={{ id: organization.id, name: organization.name, credits: pools }}
          />
        </>
      )}
    </Stack>
  );
}
