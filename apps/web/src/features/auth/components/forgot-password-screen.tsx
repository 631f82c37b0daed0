import { type ForgotPasswordRequest, forgotPasswordRequestSchema } from '@allot/domain/auth';
import { MSG } from '@allot/domain/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { isApiError } from '../../../lib/api-error';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { forgotPassword } from '../api/forgot-password';
import { AuthCard } from './auth-card';

/** /forgot: asks for the email; the answer is the same whether or not it has an account. */
export function ForgotPasswordScreen() {
  useDocumentTitle('Reset your password · Allot');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { resetAsked, resetIntro } = useMailWords();
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordRequest>({
    resolver: zodResolver(forgotPasswordRequestSchema),
    defaultValues: { email: '' },
  });

  async function submit(values: ForgotPasswordRequest) {
    setError(null);
    try {
      await forgotPassword(values);
      setSentTo(values.email);
    } catch (cause) {
      setError(isApiError(cause) && cause.status === 429 ? cause.message : MSG.resetRequestFailed);
    }
  }

  if (sentTo) {
    return (
      <AuthCard title={resetAsked.title}>
        <Stack gap="md">
          <Text size="sm">
            {resetAsked.lead} <strong>{sentTo}</strong>
            {resetAsked.rest}
          </Text>
          <Text size="sm" c="dimmed">
            {resetAsked.after}
          </Text>
          <Button component={Link} to="/login" variant="default" fullWidth>
            Back to sign in
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset your password" description={resetIntro}>
      <form noValidate onSubmit={handleSubmit(submit)} aria-label="Reset your password">
        <Stack gap="md">
          {error && <FormAlert title="Request failed">{error}</FormAlert>}
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            placeholder="you@example.org"
            autoFocus
            error={errors.email?.message}
            {...register('email')}
          />
          <Button type="submit" fullWidth loading={isSubmitting}>
            Send reset code
          </Button>
          <Anchor component={Link} to="/login" size="sm" ta="center">
            Back to sign in
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
