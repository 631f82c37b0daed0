import { MSG } from '@allot/domain/messages';
import { MFA_MSG, secondFactorCodeSchema, totpCodeSchema } from '@allot/domain/mfa';
import { text } from '@allot/domain/text';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { type UseFormSetError, useForm } from 'react-hook-form';
import { z } from 'zod';
import { OneTimeCodeInput } from './one-time-code-input';

const password = text().min(1, MSG.required).max(1024);
const SCHEMAS = {
  app: z.object({ code: totpCodeSchema, password: z.string() }),
  recovery: z.object({ code: secondFactorCodeSchema, password: z.string() }),
  appWithPassword: z.object({ code: totpCodeSchema, password }),
  recoveryWithPassword: z.object({ code: secondFactorCodeSchema, password }),
};
export type TwoFactorCodeValues = { code: string; password: string };

interface TwoFactorCodeFormProps {
  /**
   * Sends the code (and the password); throws the API's error. `setError` puts a server message on a field;
   * other failures the caller shows in `alert`.
   */
  onSubmit: (values: TwoFactorCodeValues, setError: UseFormSetError<TwoFactorCodeValues>) => Promise<void>;
  submitLabel: string;
  alert?: ReactNode;
  /** Ask for the account's password too (turning two-factor off, new recovery codes). */
  withPassword?: boolean;
  /** The form's accessible name. */
  label: string;
  /** Below the submit button (e.g. Cancel in a dialog). */
  children?: ReactNode;
}

function CodeFields({
  recovery,
  onSwitch,
  ...props
}: TwoFactorCodeFormProps & { recovery: boolean; onSwitch: () => void }) {
  const schema = SCHEMAS[`${recovery ? 'recovery' : 'app'}${props.withPassword ? 'WithPassword' : ''}`];
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorCodeValues>({
    resolver: zodResolver(schema),
    defaultValues: { code: '', password: '' },
  });
  const submit = handleSubmit((values) => props.onSubmit({ ...values, code: values.code.trim() }, setError));
  return (
    <form noValidate aria-label={props.label} onSubmit={submit}>
      <Stack gap="md">
        {props.alert}
        {props.withPassword && (
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            autoFocus
            error={errors.password?.message}
            {...register('password')}
          />
        )}
        {recovery ? (
          <TextInput
            label="Recovery code"
            description="One of the recovery codes you saved when you turned two-factor on. Each works once."
            placeholder="xxxx-xxxx-xxxx-xxxx"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus={!props.withPassword}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            error={errors.code?.message}
            {...register('code')}
          />
        ) : (
          <OneTimeCodeInput
            label="Authentication code"
            description={MFA_MSG.totpFormat}
            autoFocus={!props.withPassword}
            error={errors.code?.message}
            {...register('code')}
          />
        )}
        <Button type="submit" fullWidth loading={isSubmitting}>
          {props.submitLabel}
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onSwitch} style={{ alignSelf: 'center' }}>
          {recovery ? 'Use the code from your authenticator app' : 'Use a recovery code instead'}
        </Anchor>
        {props.children}
      </Stack>
    </form>
  );
}

/** A code that proves the second factor: the app's 6 digits, or (switched to) a recovery code. */
export function TwoFactorCodeForm(props: TwoFactorCodeFormProps) {
  const [recovery, setRecovery] = useState(false);
  // A new form for each kind of code: its own field and rules.
  return (
    <CodeFields
      key={recovery ? 'recovery' : 'app'}
      {...props}
      recovery={recovery}
      onSwitch={() => setRecovery((r) => !r)}
    />
  );
}
