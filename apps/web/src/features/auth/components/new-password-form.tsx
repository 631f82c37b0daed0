import { newPasswordFormSchema, type NewPasswordForm as Values } from '@allot/domain/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, PasswordInput, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';

interface NewPasswordFormProps {
  submitLabel: string;
  onSubmit: (password: string) => Promise<void>;
  alert?: ReactNode;
  /** A field message from the server for the password (400 details.fields.password). */
  passwordError?: string | null;
  /** The account's email, so that password managers store the new password for it. */
  email?: string;
}

/** A new password and its repeat ('Fields don't match'), at least 10 characters. */
export function NewPasswordForm({
  submitLabel,
  onSubmit,
  alert,
  passwordError,
  email,
}: NewPasswordFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: '', repeat: '' },
  });

  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(values.password))} aria-label={submitLabel}>
      <Stack gap="md">
        {alert}
        {email && (
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        )}
        <PasswordInput
          label="New password"
          description="At least 10 characters."
          autoComplete="new-password"
          autoFocus
          error={errors.password?.message ?? passwordError ?? undefined}
          {...register('password')}
        />
        <PasswordInput
          label="Repeat new password"
          autoComplete="new-password"
          error={errors.repeat?.message}
          {...register('repeat')}
        />
        <Button type="submit" fullWidth loading={isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
