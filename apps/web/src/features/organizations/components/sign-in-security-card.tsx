import { MFA_MSG } from '@allot/domain/mfa';
import type { Organization } from '@allot/domain/organizations';
import type { Role } from '@allot/domain/roles';
import { Anchor, Badge, Card, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { OwnCodeConfirmation } from '../../../components/own-code-confirmation';
import { useUpdateOrganizationSecurity } from '../api/update-organization-security';

interface SignInSecurityCardProps {
  organization: Organization;
  role: Role | null;
  /**
   * Whether the caller's own two-factor is on (undefined while unknown): switching the requirement on or off
   * needs a code of it.
   */
  ownTwoFactorOn: boolean | undefined;
}

/**
 * General information's 'Sign-in security' (decision 015): an owner (or a system admin) requires two-factor
 * sign-in of the owners and admins of the organization and everything below, confirming it with a code of their
 * own two-factor (CONTRACT §3); admins see the setting.
 */
export function SignInSecurityCard({ organization, role, ownTwoFactorOn }: SignInSecurityCardProps) {
  const security = organization.security;
  const [confirming, setConfirming] = useState<boolean | null>(null);
  if (!security) return null;
  const mayChange = role === 'organization_owner' || role === 'system_admin';
  const above = security.requiredAbove;
  const required = security.requireMfa || above !== null;
  // Without the caller's own two-factor no code can confirm a switch, on or off.
  const needsOwn = mayChange && !above && ownTwoFactorOn === false;
  const notes = [
    above ? `Required by ${above.name} for everything below it.` : null,
    mayChange ? null : 'Only an owner of the organization can change this.',
  ].filter((note) => note !== null);

  return (
    <Card component="section" aria-labelledby="sign-in-security-heading">
      <Stack gap="sm">
        <Title order={2} fz="h4" id="sign-in-security-heading">
          Sign-in security
        </Title>
        {mayChange && !above && !needsOwn ? (
          <Switch
            label="Require two-factor sign-in for owners and admins"
            description={`Owners and admins of ${organization.name} and of every organization below it sign in with a code from an authenticator app.`}
            checked={security.requireMfa}
            onChange={(event) => setConfirming(event.currentTarget.checked)}
          />
        ) : (
          // Not the caller's to change (or not yet: their own two-factor is off): the state in words, not a
          // greyed-out switch that reads as off.
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <Badge color={required ? 'teal' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
              {required ? 'Required' : 'Not required'}
            </Badge>
            <Text size="sm">
              Two-factor sign-in for the owners and admins of {organization.name} and of every organization
              below it.
            </Text>
          </Group>
        )}
        {notes.map((note) => (
          <Text key={note} size="sm" c="dimmed">
            {note}
          </Text>
        ))}
        {needsOwn && (
          <Text size="sm" c="orange.9">
            {MFA_MSG.ownNeeded}{' '}
            <Anchor
              component={Link}
              to="/account"
              inherit
              underline="always"
              style={{ whiteSpace: 'nowrap' }}
            >
              Open Account security
            </Anchor>
          </Text>
        )}
      </Stack>
      <ConfirmSecurityModal
        organization={organization}
        requireMfa={confirming}
        onClose={() => setConfirming(null)}
      />
    </Card>
  );
}

function ConfirmSecurityModal({
  organization,
  requireMfa,
  onClose,
}: {
  organization: Organization;
  /** The value to save; null keeps the dialog closed. */
  requireMfa: boolean | null;
  onClose: () => void;
}) {
  // The last value asked for: the dialog keeps its words while it fades out.
  const [shown, setShown] = useState(requireMfa ?? true);
  if (requireMfa !== null && requireMfa !== shown) setShown(requireMfa);
  const title = shown ? 'Require two-factor sign-in?' : 'Stop requiring two-factor sign-in?';
  return (
    <Modal opened={requireMfa !== null} onClose={onClose} title={title} centered>
      {requireMfa !== null && (
        <ConfirmSecurityForm
          organization={organization}
          requireMfa={requireMfa}
          title={title}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function ConfirmSecurityForm({
  organization,
  requireMfa,
  title,
  onClose,
}: {
  organization: Organization;
  requireMfa: boolean;
  title: string;
  onClose: () => void;
}) {
  const update = useUpdateOrganizationSecurity();
  async function submit(code: string) {
    await update.mutateAsync({ organizationId: organization.id, requireMfa, code });
    notifications.show({
      color: 'green',
      title: requireMfa ? 'Two-factor sign-in required' : 'Two-factor sign-in no longer required',
      message: organization.name,
    });
    onClose();
  }
  return (
    <OwnCodeConfirmation
      label={title}
      submitLabel={requireMfa ? 'Require two-factor' : 'Stop requiring'}
      failureTitle="Not changed"
      ownOffText={MFA_MSG.ownNeeded}
      submit={submit}
      onCancel={onClose}
    >
      {requireMfa ? (
        <Text size="sm">
          Owners and admins of {organization.name} and of every organization below it will sign in with a code
          from an authenticator app. Those who have not set it up are signed out now and set it up at their
          next sign-in.
        </Text>
      ) : (
        <Text size="sm">
          Owners and admins of {organization.name} may sign in with their password alone again (unless an
          organization above requires it). Those who turned two-factor on keep it.
        </Text>
      )}
    </OwnCodeConfirmation>
  );
}
