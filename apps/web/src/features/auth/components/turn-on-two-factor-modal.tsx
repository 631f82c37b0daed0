import { MSG } from '@allot/domain/messages';
import type { MfaSetupResponse } from '@allot/domain/mfa';
import { text } from '@allot/domain/text';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { errorText } from '../../../lib/api-error';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSession } from '../../../lib/session';
import { enableTwoFactor } from '../api/enable-two-factor';
import { setUpTwoFactor } from '../api/set-up-two-factor';
import { AuthenticatorSetup } from './authenticator-setup';
import { RecoveryCodesPanel } from './recovery-codes-panel';

const passwordSchema = z.object({ password: text().min(1, MSG.required).max(1024) });

interface TurnOnTwoFactorModalProps {
  opened: boolean;
  onClose: () => void;
}

/** Turning two-factor on from the account page: the password, then the app (QR code and first code), then the recovery codes. */
export function TurnOnTwoFactorModal({ opened, onClose }: TurnOnTwoFactorModalProps) {
  const session = useSession();
  const [setup, setSetup] = useState<MfaSetupResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  function close() {
    setSetup(null);
    setCodes(null);
    onClose();
  }

  const title = codes
    ? 'Save your recovery codes'
    : setup
      ? 'Set up your authenticator app'
      : 'Turn on two-factor sign-in';
  return (
    // Closing while codes are shown would lose them: only the "saved" button ends that step.
    <Modal
      opened={opened}
      onClose={codes ? () => undefined : close}
      withCloseButton={!codes}
      closeOnEscape={!codes}
      closeOnClickOutside={!codes}
      title={title}
      centered
      size="md"
    >
      {codes ? (
        <RecoveryCodesPanel codes={codes} email={session.userEmail} doneLabel="Done" onDone={close} />
      ) : setup ? (
        <SetupStep setup={setup} onEnabled={setCodes} onCancel={close} />
      ) : (
        <PasswordStep onReady={setSetup} onCancel={close} />
      )}
    </Modal>
  );
}

function PasswordStep({
  onReady,
  onCancel,
}: {
  onReady: (setup: MfaSetupResponse) => void;
  onCancel: () => void;
}) {
  const [error, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ password: string }>({
    resolver: zodResolver(passwordSchema),
    defaultValues: { password: '' },
  });

  async function submit({ password }: { password: string }) {
    setFormError(null);
    try {
      onReady(await setUpTwoFactor({ password }));
    } catch (cause) {
      setFormError(applyServerErrors(cause, ['password'], (field, message) => setError(field, { message })));
    }
  }

  return (
    <form noValidate aria-label="Confirm your password" onSubmit={handleSubmit(submit)}>
      <Stack gap="md">
        <Text size="sm">
          At every sign-in you will enter a code from an authenticator app on your phone as well as your
          password. Every other session of your account ends when it is on.
        </Text>
        {error && <FormAlert title="Not started">{error}</FormAlert>}
        <PasswordInput
          label="Password"
          description="Your password, to confirm it is you."
          autoComplete="current-password"
          autoFocus
          error={errors.password?.message}
          {...register('password')}
        />
        <DialogActions onCancel={onCancel} busy={isSubmitting} submitLabel="Continue" />
      </Stack>
    </form>
  );
}

function SetupStep({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: MfaSetupResponse;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  async function confirm(code: string) {
    setError(null);
    try {
      const { recoveryCodes } = await enableTwoFactor({ code });
      notifications.show({
        color: 'green',
        title: 'Two-factor sign-in is on',
        message: 'From now on you sign in with your password and a code from your app.',
      });
      onEnabled(recoveryCodes);
    } catch (cause) {
      setError(errorText(cause));
    }
  }
  return (
    <Stack gap="sm">
      <AuthenticatorSetup
        setup={setup}
        submitLabel="Turn on two-factor sign-in"
        alert={error && <FormAlert title="Not turned on">{error}</FormAlert>}
        onConfirm={confirm}
      />
      <Button variant="subtle" color="gray" onClick={onCancel}>
        Cancel
      </Button>
    </Stack>
  );
}
