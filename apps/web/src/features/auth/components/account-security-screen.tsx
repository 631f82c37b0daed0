import { Badge, Button, Card, Container, Group, Modal, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconKey, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../components/load-error';
import { ReasonedButton } from '../../../components/reasoned-button';
import { useSession } from '../../../lib/session';
import { useTwoFactorStatus } from '../../../lib/two-factor-status';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useReplaceRecoveryCodes } from '../api/replace-recovery-codes';
import { ConfirmTwoFactorModal } from './confirm-two-factor-modal';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TurnOnTwoFactorModal } from './turn-on-two-factor-modal';

const REQUIRED_TEXT =
  'Two-factor sign-in is required for your account: an organization you manage asks for it (or it is required of system admins).';

/** The signed-in person's own account: two-factor sign-in (decision 015). */
export function AccountSecurityScreen() {
  useDocumentTitle('Account security · Allot');
  const session = useSession();
  return (
    <Container size="sm" w="100%" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Account security
          </Title>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Signed in as {session.userEmail}
          </Text>
        </Stack>
        <TwoFactorCard />
      </Stack>
    </Container>
  );
}

function TwoFactorCard() {
  const { data, isPending, isError, error, refetch, isRefetching } = useTwoFactorStatus();
  const [dialog, setDialog] = useState<'on' | 'off' | 'codes' | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const disable = useDisableTwoFactor();
  const replace = useReplaceRecoveryCodes();
  const session = useSession();
  const close = () => setDialog(null);

  return (
    <Card component="section" aria-labelledby="two-factor-heading">
      <Stack gap="md">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={2} fz="h4" id="two-factor-heading">
            Two-factor sign-in
          </Title>
          {data && (
            <Badge color={data.enabled ? 'teal' : 'gray'} variant="light" size="lg">
              {data.enabled ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Sign in with a code from an authenticator app on your phone as well as your password, so that a
          stolen password alone does not open your account.
        </Text>
        {isPending ? (
          <Stack gap="xs" role="status" aria-busy="true" aria-label="Loading two-factor sign-in">
            <Skeleton h={20} w="60%" />
            <Skeleton h={36} w={200} />
          </Stack>
        ) : isError ? (
          <LoadError
            title="Two-factor sign-in could not be loaded"
            error={error}
            onRetry={() => void refetch()}
            retrying={isRefetching}
          />
        ) : data.enabled ? (
          <Stack gap="md">
            <Text size="sm">
              Recovery codes left:{' '}
              <Text span inherit fw={600} c={data.recoveryCodesLeft <= 3 ? 'orange.9' : undefined}>
                {data.recoveryCodesLeft} of 10
              </Text>
              {data.recoveryCodesLeft <= 3 && ' — make new ones before they run out.'}
            </Text>
            {data.required && (
              <Text size="sm" c="dimmed">
                {REQUIRED_TEXT}
              </Text>
            )}
            <Group gap="sm">
              <Button
                variant="default"
                leftSection={<IconKey size={16} aria-hidden="true" />}
                onClick={() => setDialog('codes')}
              >
                New recovery codes
              </Button>
              <ReasonedButton
                variant="outline"
                color="red"
                reason={data.required ? REQUIRED_TEXT : undefined}
                leftSection={<IconShieldOff size={16} aria-hidden="true" />}
                onClick={() => setDialog('off')}
              >
                Turn off
              </ReasonedButton>
            </Group>
          </Stack>
        ) : (
          <Stack gap="md" align="flex-start">
            {data.required && (
              <Text size="sm" c="orange.9">
                {REQUIRED_TEXT}
              </Text>
            )}
            <Button
              leftSection={<IconShieldCheck size={16} aria-hidden="true" />}
              onClick={() => setDialog('on')}
            >
              Turn on two-factor sign-in
            </Button>
          </Stack>
        )}
      </Stack>

      <TurnOnTwoFactorModal opened={dialog === 'on'} onClose={close} />
      <ConfirmTwoFactorModal
        opened={dialog === 'off'}
        title="Turn off two-factor sign-in?"
        explanation="Your password alone will sign you in again, and your recovery codes stop working. Every other session of your account ends."
        submitLabel="Turn off"
        failureTitle="Not turned off"
        onClose={close}
        submit={async (values) => {
          await disable.mutateAsync(values);
          notifications.show({
            color: 'gray',
            title: 'Two-factor sign-in is off',
            message: session.userEmail ?? '',
          });
          close();
        }}
      />
      <ConfirmTwoFactorModal
        opened={dialog === 'codes'}
        title="New recovery codes"
        explanation="You get 10 new codes; the ones you have now stop working."
        submitLabel="Make new codes"
        failureTitle="No new codes"
        onClose={close}
        submit={async (values) => {
          const { recoveryCodes } = await replace.mutateAsync(values);
          close();
          setNewCodes(recoveryCodes);
        }}
      />
      <Modal
        opened={newCodes !== null}
        onClose={() => undefined}
        withCloseButton={false}
        closeOnEscape={false}
        closeOnClickOutside={false}
        title="Save your new recovery codes"
        centered
      >
        {newCodes && (
          <RecoveryCodesPanel
            codes={newCodes}
            email={session.userEmail}
            doneLabel="Done"
            onDone={() => setNewCodes(null)}
          />
        )}
      </Modal>
    </Card>
  );
}
