import type { Organization } from '@allot/domain/organizations';
import type { Role } from '@allot/domain/roles';
import { Anchor, Badge, Button, Card, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { useUpdateOrganizationSecurity } from '../api/update-organization-security';

interface SignInSecurityCardProps {
  organization: Organization;
  role: Role | null;
  /** Whether the caller's own two-factor is on (undefined while unknown): required before requiring it of others. */
  ownTwoFactorOn: boolean | undefined;
}

/**
 * General information's 'Sign-in security' (decision 015): an owner (or a system admin) requires two-factor
 * sign-in of the owners and admins of the organization and everything below; admins see the setting.
 */
export function SignInSecurityCard({ organization, role, ownTwoFactorOn }: SignInSecurityCardProps) {
  const security = organization.security;
  const [confirming, setConfirming] = useState<boolean | null>(null);
  if (!security) return null;
  const mayChange = role === 'organization_owner' || role === 'system_admin';
  const above = security.requiredAbove;
  const required = security.requireMfa || above !== null;
  const needsOwn = mayChange && !above && !security.requireMfa && ownTwoFactorOn === false;
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
        {mayChange && !above ? (
          <Switch
            label="Require two-factor sign-in for owners and admins"
            description={`Owners and admins of ${organization.name} and of every organization below it sign in with a code from an authenticator app.`}
            checked={security.requireMfa}
            disabled={needsOwn}
            onChange={(event) => setConfirming(event.currentTarget.checked)}
          />
        ) : (
          // Not the caller's to change: the state in words, not a greyed-out switch that reads as off.
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
            Turn on two-factor sign-in for your own account first:{' '}
            <Anchor component={Link} to="/account" inherit underline="always">
              Account security
            </Anchor>
            .
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
  const update = useUpdateOrganizationSecurity();
  const [error, setError] = useState<string | null>(null);
  function close() {
    setError(null);
    update.reset();
    onClose();
  }
  async function confirm() {
    if (requireMfa === null) return;
    setError(null);
    try {
      await update.mutateAsync({ organizationId: organization.id, requireMfa });
      notifications.show({
        color: 'green',
        title: requireMfa ? 'Two-factor sign-in required' : 'Two-factor sign-in no longer required',
        message: organization.name,
      });
      close();
    } catch (cause) {
      setError(errorText(cause));
    }
  }
  return (
    <Modal
      opened={requireMfa !== null}
      onClose={close}
      title={requireMfa ? 'Require two-factor sign-in?' : 'Stop requiring two-factor sign-in?'}
      centered
    >
      <Stack gap="md">
        {error && <FormAlert title="Not changed">{error}</FormAlert>}
        {requireMfa ? (
          <Text size="sm">
            Owners and admins of {organization.name} and of every organization below it will sign in with a
            code from an authenticator app. Those who have not set it up are signed out now and set it up at
            their next sign-in.
          </Text>
        ) : (
          <Text size="sm">
            Owners and admins of {organization.name} may sign in with their password alone again (unless an
            organization above requires it). Those who turned two-factor on keep it.
          </Text>
        )}
        <DialogFoot>
          <Button variant="default" onClick={close} disabled={update.isPending}>
            Cancel
          </Button>
          <Button onClick={() => void confirm()} loading={update.isPending}>
            {requireMfa ? 'Require two-factor' : 'Stop requiring'}
          </Button>
        </DialogFoot>
      </Stack>
    </Modal>
  );
}
