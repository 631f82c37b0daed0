import { secondFactorCodeSchema } from '@allot/domain/mfa';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, type ButtonProps, Skeleton, Stack, TextInput } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { isApiError } from '../lib/api-error';
import { applyServerErrors } from '../lib/form-errors';
import { invalidate } from '../lib/query-client';
import { queryKeys } from '../lib/query-keys';
import { useTwoFactorStatus } from '../lib/two-factor-status';
import { DialogActions, DialogFoot } from './dialog-actions';
import { FormAlert } from './form-alert';

const schema = z.object({ code: secondFactorCodeSchema });
type Values = z.input<typeof schema>;

interface OwnCodeConfirmationProps {
  /** The form's accessible name (the dialog's title). */
  label: string;
  /** What the change does, above the code field. */
  children: ReactNode;
  submitLabel: string;
  submitColor?: ButtonProps['color'];
  /** The title of the red alert when the change failed for another reason than the code. */
  failureTitle: string;
  /** Why the change needs the caller's own two-factor, shown instead of the code field while it is off. */
  ownOffText: string;
  /** Sends the change with the code; throws the API's error. */
  submit: (code: string) => Promise<void>;
  onCancel: () => void;
}

/**
 * The body of a confirmation of a change to how others sign in (CONTRACT §3, decision 015: switching an
 * organization's requirement, turning off someone's two-factor): the caller's own code confirms it. A wrong or
 * used code is said under the field, other failures above; while the caller's own two-factor is off, a code
 * cannot work, so the dialog says so and links to the account page instead. Render it inside a Modal: the
 * field takes the focus when the dialog opens, and Enter sends.
 */
export function OwnCodeConfirmation(props: OwnCodeConfirmationProps) {
  const status = useTwoFactorStatus();
  if (status.data?.enabled === false) return <TurnOnYoursFirst {...props} />;
  if (status.isPending) {
    return (
      <Stack gap="md" role="status" aria-busy="true" aria-label="Checking your two-factor sign-in">
        {props.children}
        <Skeleton h={60} />
        <DialogFoot>
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
        </DialogFoot>
      </Stack>
    );
  }
  // On, or not known (the status could not be read): the server decides.
  return <CodeForm {...props} />;
}

function TurnOnYoursFirst({ children, ownOffText, onCancel }: OwnCodeConfirmationProps) {
  return (
    <Stack gap="md">
      {children}
      <Alert
        variant="light"
        color="orange"
        icon={<IconShieldLock aria-hidden="true" />}
        title="Your two-factor sign-in is off"
      >
        {ownOffText}
      </Alert>
      <DialogFoot>
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button component={Link} to="/account" data-autofocus>
          Account security
        </Button>
      </DialogFoot>
    </Stack>
  );
}

function CodeForm({
  label,
  children,
  submitLabel,
  submitColor,
  failureTitle,
  submit,
  onCancel,
}: OwnCodeConfirmationProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { code: '' },
  });
  // The dialog's focus goes to `data-autofocus` as it opens; a field that came after the status was read is
  // focused here.
  useEffect(() => setFocus('code'), [setFocus]);

  async function send({ code }: z.output<typeof schema>) {
    setFailure(null);
    try {
      await submit(code);
    } catch (cause) {
      // A wrong or used code is about the field, though the server names no field for it.
      if (isApiError(cause) && cause.code === 'invalid_code') {
        setError('code', { message: cause.message }, { shouldFocus: true });
        return;
      }
      // The caller's own two-factor was turned off elsewhere: the status read again shows the way to turn it on.
      if (isApiError(cause) && cause.status === 422) void invalidate([queryKeys.account.twoFactor()]);
      setFailure(
        applyServerErrors(cause, ['code'] as const, (field, message) => setError(field, { message })),
      );
    }
  }

  return (
    <form noValidate aria-label={label} onSubmit={handleSubmit(send)}>
      <Stack gap="md">
        {failure && <FormAlert title={failureTitle}>{failure}</FormAlert>}
        {children}
        <TextInput
          label="Code from your authenticator app"
          description="The 6-digit code it shows now. A recovery code also works."
          placeholder="123456"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
          styles={{ input: { fontSize: 18, letterSpacing: 2, fontVariantNumeric: 'tabular-nums' } }}
          error={errors.code?.message}
          {...register('code')}
        />
        <DialogActions
          onCancel={onCancel}
          busy={isSubmitting}
          submitLabel={submitLabel}
          submitColor={submitColor}
        />
      </Stack>
    </form>
  );
}
