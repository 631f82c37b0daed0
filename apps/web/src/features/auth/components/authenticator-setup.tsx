import { groupSecret, type MfaSetupResponse, totpCodeSchema } from '@allot/domain/mfa';
import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { OneTimeCodeInput } from './one-time-code-input';
import { QrCodeImage } from './qr-code-image';

const schema = z.object({ code: totpCodeSchema });
type Values = z.infer<typeof schema>;

interface AuthenticatorSetupProps {
  setup: MfaSetupResponse;
  /** Sends the first code of the app (enable); throws the API's error, which the caller shows in `alert`. */
  onConfirm: (code: string) => Promise<void>;
  alert?: ReactNode;
  submitLabel: string;
}

/**
 * Setting up an authenticator app: the QR code of the secret, the secret as text to type by hand, and the
 * first code the app shows, which turns two-factor on.
 */
export function AuthenticatorSetup({ setup, onConfirm, alert, submitLabel }: AuthenticatorSetupProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { code: '' } });
  const key = groupSecret(setup.secret);
  const id = useId();

  return (
    <Stack gap="md">
      <Text size="sm">
        <Text span fw={600} inherit>
          1.
        </Text>{' '}
        Scan this QR code with an authenticator app on your phone, such as Google Authenticator, Microsoft
        Authenticator or 1Password.
      </Text>
      <QrCodeImage value={setup.otpauthUrl} label="QR code to scan with your authenticator app" />
      <Stack gap={4}>
        <Text size="sm" fw={500} id={`${id}-key`}>
          Setup key
        </Text>
        <Text size="xs" c="dimmed" id={`${id}-key-help`}>
          Can't scan the code? Choose to enter a key in the app, and type this one (a time-based key).
        </Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <Code
            block
            role="group"
            aria-labelledby={`${id}-key`}
            aria-describedby={`${id}-key-help`}
            fz="md"
            style={{ flex: 1, letterSpacing: 1, wordSpacing: 4, whiteSpace: 'normal', userSelect: 'all' }}
          >
            {key}
          </Code>
          <CopyButton value={setup.secret} timeout={3_000}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy the key'} withArrow>
                <ActionIcon
                  variant="default"
                  size="lg"
                  color={copied ? 'teal' : undefined}
                  onClick={copy}
                  aria-label={copied ? 'Setup key copied' : 'Copy the setup key'}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      </Stack>
      <form
        noValidate
        aria-label="Confirm the authenticator app"
        onSubmit={handleSubmit((v) => onConfirm(v.code))}
      >
        <Stack gap="md">
          <Text size="sm">
            <Text span fw={600} inherit>
              2.
            </Text>{' '}
            Enter the 6-digit code the app now shows for Allot.
          </Text>
          {alert}
          <OneTimeCodeInput label="Code from the app" error={errors.code?.message} {...register('code')} />
          <Button type="submit" fullWidth loading={isSubmitting}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
