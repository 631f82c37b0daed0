import { emailSchema } from '@allot/domain/auth';
import { MSG } from '@allot/domain/messages';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { isApiError } from '../../../lib/api-error';
import { serverFieldErrors } from '../../../lib/form-errors';
import { login } from '../api/login';
import { verifyEmail } from '../api/verify-email';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';
import { NewPasswordForm } from './new-password-form';
import { ResendVerification } from './resend-verification';
import { signInErrorMessage } from './sign-in-error';

type Step =
  | { name: 'code' }
  | { name: 'password'; code: string }
  /** Verified; `message` when signing in afterwards was refused (e.g. a teacher has no panel access). */
  | { name: 'done'; message: string | null };

function failureText(error: unknown): string {
  return isApiError(error) && error.status === 429 ? error.message : MSG.verificationFailed;
}

/**
 * /register/verify?email=…: the code of an invitation or verification mail; an invited account then
 * chooses its password and is signed in.
 */
export function RegisterVerifyScreen() {
  const [params] = useSearchParams();
  const fromLink = params.get('email')?.trim() ?? '';
  const [email, setEmail] = useState(fromLink);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ name: 'code' });
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const completeSignIn = useCompleteSignIn();
  useDocumentTitle(`${step.name === 'password' ? 'Choose your password' : 'Verify your email'} · Allot`);
  const validEmail = emailSchema.safeParse(email).success;
  // The link of the mail names the address: shown, not edited.
  const emailFromLink = fromLink !== '' && emailSchema.safeParse(fromLink).success;

  async function submitCode(code: string) {
    setError(null);
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? MSG.invalidEmail);
      return;
    }
    setEmailError(null);
    try {
      await verifyEmail({ email: parsed.data, code });
      setStep({ name: 'done', message: null });
    } catch (cause) {
      if (isApiError(cause) && cause.code === 'password_required') setStep({ name: 'password', code });
      else setError(failureText(cause));
    }
  }

  async function submitPassword(code: string, password: string) {
    setError(null);
    setPasswordError(null);
    try {
      await verifyEmail({ email, code, password });
    } catch (cause) {
      const onPassword = serverFieldErrors(cause).password;
      if (onPassword) setPasswordError(onPassword);
      else setError(failureText(cause));
      return;
    }
    try {
      await completeSignIn(await login({ email, password }));
    } catch (cause) {
      setStep({ name: 'done', message: signInErrorMessage(cause) });
    }
  }

  if (step.name === 'done') {
    return (
      <AuthCard title="Your email is verified">
        <Stack gap="md">
          {step.message ? (
            <Text size="sm">{step.message}</Text>
          ) : (
            <Text size="sm">Sign in with your email and password.</Text>
          )}
          <Button component={Link} to="/login" fullWidth>
            Sign in
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  if (step.name === 'password') {
    return (
      <AuthCard
        title="Choose your password"
        description={
          <>
            Your code was accepted. Choose the password you will sign in with as <strong>{email}</strong>.
          </>
        }
      >
        <NewPasswordForm
          submitLabel="Set password and sign in"
          email={email}
          passwordError={passwordError}
          alert={error && <FormAlert title="Verification failed">{error}</FormAlert>}
          onSubmit={(password) => submitPassword(step.code, password)}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Verify your email"
      description="Enter the 6-digit code from your invitation or verification email."
    >
      <Stack gap="md">
        <CodeForm
          label="Verification code"
          submitLabel="Verify"
          alert={error && <FormAlert title="Verification failed">{error}</FormAlert>}
          before={
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              value={email}
              readOnly={emailFromLink}
              variant={emailFromLink ? 'filled' : 'default'}
              error={emailError}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
          }
          onSubmit={submitCode}
        />
        <Group justify="space-between" gap="xs" align="center">
          <Text size="sm" c="dimmed">
            Code expired or lost?
          </Text>
          {validEmail ? (
            <ResendVerification email={email.trim()} label="Send a new code" />
          ) : (
            <Text size="sm" c="dimmed">
              Enter your email first.
            </Text>
          )}
        </Group>
        <Anchor component={Link} to="/login" size="sm" ta="center">
          Back to sign in
        </Anchor>
      </Stack>
    </AuthCard>
  );
}
