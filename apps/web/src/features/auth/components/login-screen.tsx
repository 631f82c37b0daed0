import type { LoginRequest } from '@allot/domain/auth';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { isApiError } from '../../../lib/api-error';
import { login } from '../api/login';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { AuthCard } from './auth-card';
import { LoginForm } from './login-form';
import { signInErrorMessage } from './sign-in-error';

export function LoginScreen() {
  useDocumentTitle('Sign in · Allot');
  const completeSignIn = useCompleteSignIn();
  const [error, setError] = useState<string | null>(null);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);

  async function handleSubmit(values: LoginRequest) {
    setError(null);
    setUnverifiedEmail(null);
    let answer: Awaited<ReturnType<typeof login>>;
    try {
      answer = await login(values);
    } catch (cause) {
      setError(signInErrorMessage(cause));
      if (isApiError(cause) && cause.code === 'not_verified') setUnverifiedEmail(values.email);
      return;
    }
    await completeSignIn(answer);
  }

  return (
    <AuthCard title="Sign in" description="Manage licences and credits for your organizations.">
      <LoginForm onSubmit={handleSubmit} error={error} unverifiedEmail={unverifiedEmail} />
    </AuthCard>
  );
}
