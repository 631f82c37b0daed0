import type { LoginResponse } from '@allot/domain/auth';
import type { MfaEnableResponse, MfaSetupResponse } from '@allot/domain/mfa';
import { Anchor, Button, Skeleton, Stack } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { errorText, isApiError } from '../../../lib/api-error';
import { enableTwoFactor } from '../api/enable-two-factor';
import { setUpTwoFactor } from '../api/set-up-two-factor';
import { AuthCard } from './auth-card';
import { AuthenticatorSetup } from './authenticator-setup';
import { RecoveryCodesPanel } from './recovery-codes-panel';

interface TwoFactorSetupSignInProps {
  challenge: string;
  email: string;
  onSignedIn: (answer: LoginResponse) => Promise<void>;
  /** The sign-in expired (`401`): back to the password, with this text. */
  onExpired: (message: string) => void;
  onBack: () => void;
}

/**
 * A sign-in answered `mfa_setup_required` (CONTRACT §3): before anything else, the person sets up an
 * authenticator app with the sign-in's challenge, saves the recovery codes, and is then signed in.
 */
export function TwoFactorSetupSignIn({
  challenge,
  email,
  onSignedIn,
  onExpired,
  onBack,
}: TwoFactorSetupSignInProps) {
  useDocumentTitle('Set up two-factor sign-in · Allot');
  const [setup, setSetup] = useState<MfaSetupResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [enabled, setEnabled] = useState<MfaEnableResponse | null>(null);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      setSetup(await setUpTwoFactor({ challenge }));
    } catch (cause) {
      if (isApiError(cause) && cause.status === 401) onExpired(cause.message);
      else setLoadError(errorText(cause));
    }
  }, [challenge, onExpired]);
  // Once: a second set-up would replace the secret already shown.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void load();
  }, [load]);

  async function confirm(code: string) {
    setError(null);
    try {
      setEnabled(await enableTwoFactor({ challenge, code }));
    } catch (cause) {
      if (isApiError(cause) && cause.status === 401) onExpired(cause.message);
      else setError(errorText(cause));
    }
  }

  if (enabled) {
    const { session } = enabled;
    return (
      <AuthCard title="Save your recovery codes" eyebrow="Two-factor sign-in is on">
        <RecoveryCodesPanel
          codes={enabled.recoveryCodes}
          email={email}
          doneLabel="Continue to Allot"
          onDone={() =>
            session ? void onSignedIn(session) : onExpired('Two-factor sign-in is on. Please sign in again.')
          }
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Set up two-factor sign-in"
      eyebrow="Required for your account"
      description="An organization you manage asks for a code from an authenticator app at every sign-in. Set it up now to continue."
    >
      {loadError ? (
        <Stack gap="sm">
          <FormAlert title="Two-factor sign-in could not be set up">{loadError}</FormAlert>
          <Button variant="default" onClick={() => void load()}>
            Try again
          </Button>
        </Stack>
      ) : setup ? (
        <AuthenticatorSetup
          setup={setup}
          submitLabel="Turn on two-factor sign-in"
          alert={error && <FormAlert title="Not turned on">{error}</FormAlert>}
          onConfirm={confirm}
        />
      ) : (
        <Stack gap="sm" role="status" aria-busy="true" aria-label="Preparing the set-up">
          <Skeleton h={184} w={184} mx="auto" />
          <Skeleton h={36} />
        </Stack>
      )}
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
    </AuthCard>
  );
}
