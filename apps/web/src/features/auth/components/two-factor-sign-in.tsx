import type { LoginResponse } from '@allot/domain/auth';
import { Anchor, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { errorText, isApiError } from '../../../lib/api-error';
import { verifyTwoFactor } from '../api/verify-two-factor';
import { AuthCard } from './auth-card';
import { TwoFactorCodeForm } from './two-factor-code-form';

interface TwoFactorSignInProps {
  challenge: string;
  email: string;
  onSignedIn: (answer: LoginResponse) => Promise<void>;
  /** The sign-in expired (`401`): back to the password, with this text. */
  onExpired: (message: string) => void;
  onBack: () => void;
}

/** The code step of a sign-in answered `mfa_required`: the app's code, or a recovery code. */
export function TwoFactorSignIn({ challenge, email, onSignedIn, onExpired, onBack }: TwoFactorSignInProps) {
  useDocumentTitle('Two-factor sign-in · Allot');
  const [error, setError] = useState<string | null>(null);

  async function submit({ code }: { code: string }) {
    setError(null);
    let answer: LoginResponse;
    try {
      answer = await verifyTwoFactor({ challenge, code });
    } catch (cause) {
      if (isApiError(cause) && cause.status === 401) onExpired(cause.message);
      else setError(errorText(cause));
      return;
    }
    await onSignedIn(answer);
  }

  return (
    <AuthCard
      title="Two-factor sign-in"
      description={
        <>
          Open your authenticator app and enter the code it shows for Allot,{' '}
          <Text span inherit fw={500} style={{ overflowWrap: 'anywhere' }}>
            {email}
          </Text>
          .
        </>
      }
    >
      <TwoFactorCodeForm
        label="Two-factor sign-in"
        submitLabel="Verify"
        alert={error && <FormAlert title="Not signed in">{error}</FormAlert>}
        onSubmit={submit}
      >
        <Anchor
          component="button"
          type="button"
          size="sm"
          c="dimmed"
          onClick={onBack}
          style={{ alignSelf: 'center' }}
        >
          Back to sign in
        </Anchor>
      </TwoFactorCodeForm>
    </AuthCard>
  );
}
