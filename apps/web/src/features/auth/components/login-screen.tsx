import type { LoginRequest } from '@allot/domain/auth';
import { APP_MSG } from '@allot/domain/messages';
import { Alert, Center, Loader } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import { isApiError } from '../../../lib/api-error';
import { sessionEnd } from '../../../lib/session-end';
import { login } from '../api/login';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { type TwoFactorStep, twoFactorStepIn, twoFactorStepOf } from '../two-factor-step';
import { AuthCard } from './auth-card';
import { LoginForm } from './login-form';
import { signInErrorMessage } from './sign-in-error';
import { TwoFactorSignIn } from './two-factor-sign-in';

// Setting up at sign-in is rare: it brings the QR code drawing with it, loaded only then.
const TwoFactorSetupSignIn = lazy(async () => ({
  default: (await import('./two-factor-setup-sign-in')).TwoFactorSetupSignIn,
}));

/**
 * Sign in (CONTRACT §3): the password, then, with two-factor on, the code step; an account required to have
 * two-factor that has none sets it up first (decision 015).
 */
export function LoginScreen() {
  const location = useLocation();
  const completeSignIn = useCompleteSignIn();
  const [error, setError] = useState<string | null>(null);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  // A sign-in made elsewhere (an invitation just finished) may hand its second step over.
  const [step, setStep] = useState<TwoFactorStep | null>(() => twoFactorStepIn(location.state));

  async function handleSubmit(values: LoginRequest) {
    setError(null);
    setUnverifiedEmail(null);
    let answer: Awaited<ReturnType<typeof login>>;
    try {
      answer = await login(values);
    } catch (cause) {
      const next = twoFactorStepOf(cause, values.email);
      if (next) {
        setStep(next);
        return;
      }
      setError(signInErrorMessage(cause));
      if (isApiError(cause) && cause.code === 'not_verified') setUnverifiedEmail(values.email);
      return;
    }
    await completeSignIn(answer);
  }

  const backToPassword = useCallback((message: string | null) => {
    setStep(null);
    setError(message);
  }, []);
  const expired = useCallback((message: string) => backToPassword(message), [backToPassword]);

  if (step?.kind === 'code') {
    return (
      <TwoFactorSignIn
        challenge={step.challenge}
        email={step.email}
        onSignedIn={completeSignIn}
        onExpired={expired}
        onBack={() => backToPassword(null)}
      />
    );
  }
  if (step?.kind === 'setup') {
    return (
      <Suspense
        fallback={
          <Center flex={1} p="xl">
            <Loader aria-label="Loading" />
          </Center>
        }
      >
        <TwoFactorSetupSignIn
          challenge={step.challenge}
          email={step.email}
          onSignedIn={completeSignIn}
          onExpired={expired}
          onBack={() => backToPassword(null)}
        />
      </Suspense>
    );
  }
  return <PasswordStep error={error} unverifiedEmail={unverifiedEmail} onSubmit={handleSubmit} />;
}

function PasswordStep({
  error,
  unverifiedEmail,
  onSubmit,
}: {
  error: string | null;
  unverifiedEmail: string | null;
  onSubmit: (values: LoginRequest) => Promise<void>;
}) {
  useDocumentTitle('Sign in · Allot');
  // Read once: the sign-in consumes it (returnAfterSignIn).
  const [ended] = useState(() => sessionEnd());
  return (
    <AuthCard title="Sign in" description="Manage licences and credits for your organizations.">
      {ended?.ended && (
        <Alert
          color={ended.unsavedChange ? 'orange' : 'blue'}
          title="Your session ended"
          mb="md"
          role="status"
        >
          {ended.unsavedChange ? APP_MSG.sessionEndedUnsaved : APP_MSG.sessionEnded}
        </Alert>
      )}
      <LoginForm
        onSubmit={onSubmit}
        error={error}
        unverifiedEmail={unverifiedEmail}
        email={ended?.ended ? ended.email : null}
      />
    </AuthCard>
  );
}
