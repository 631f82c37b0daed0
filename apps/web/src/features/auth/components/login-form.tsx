import { type LoginRequest, loginRequestSchema } from '@allot/domain/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { ResendVerification } from './resend-verification';

interface LoginFormProps {
  onSubmit: (values: LoginRequest) => Promise<void>;
  error: string | null;
  /** Set when sign-in answered not_verified: the alert offers to resend the verification. */
  unverifiedEmail?: string | null;
  /** Filled in (the session that ended was theirs): the password is the field to type in. */
  email?: string | null;
}

export function LoginForm({ onSubmit, error, unverifiedEmail, email }: LoginFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginRequest>({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: email ?? '', password: '' },
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Sign in">
      <Stack gap="md">
        {error && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle aria-hidden="true" />}
            title="Sign in failed"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{error}</Text>
              {unverifiedEmail && (
                <>
                  <ResendVerification email={unverifiedEmail} />
                  <Anchor
                    component={Link}
                    to={`/register/verify?email=${encodeURIComponent(unverifiedEmail)}`}
                    size="sm"
                  >
                    I have a code
                  </Anchor>
                </>
              )}
            </Stack>
          </Alert>
        )}
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          placeholder="you@example.org"
          autoFocus={!email}
          error={errors.email?.message}
          {...register('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          autoFocus={Boolean(email)}
          error={errors.password?.message}
          {...register('password')}
        />
        <Group justify="flex-end" mt={-6}>
          <Anchor component={Link} to="/forgot" size="sm">
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={isSubmitting}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
