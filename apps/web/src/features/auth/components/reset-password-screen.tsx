import { MSG } from '@allot/domain/messages';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { isApiError } from '../../../lib/api-error';
import { serverFieldErrors } from '../../../lib/form-errors';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { checkResetCode } from '../api/check-reset-code';
import { resetPassword } from '../api/reset-password';
import { AuthCard } from './auth-card';
import { CodeForm } from './code-form';
import { NewPasswordForm } from './new-password-form';

type Step = { name: 'code' } | { name: 'password'; code: string } | { name: 'done' };

/** The text of a failed step: the server's for too many attempts, else the spec's for that step. */
function failureText(error: unknown, specText: string): string {
  return isApiError(error) && error.status === 429 ? error.message : specText;
}

/** /password/token/{userId}/{token}: the code from the mail, then the new password twice, then success. */
export function ResetPasswordScreen() {
  const { userId = '', token = '' } = useParams();
  const [step, setStep] = useState<Step>({ name: 'code' });
  const words = useMailWords();
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  useDocumentTitle(`${step.name === 'done' ? 'Password changed' : 'Choose a new password'} · Allot`);

  const requestAgain = (
    <Anchor component={Link} to="/forgot" size="sm" ta="center">
      Request a new code
    </Anchor>
  );

  if (step.name === 'done') {
    return (
      <AuthCard title="Your password was changed">
        <Stack gap="md">
          <Text size="sm">
            Sign in with your new password. For your safety, every other session of your account was signed
            out.
          </Text>
          <Button component={Link} to="/login" fullWidth>
            Sign in
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  if (step.name === 'code') {
    return (
      <AuthCard eyebrow="Step 1 of 2" title="Enter your reset code" description={words.resetCode}>
        <Stack gap="md">
          <CodeForm
            label="Reset code"
            submitLabel="Continue"
            alert={error && <FormAlert title="Code not accepted">{error}</FormAlert>}
            onSubmit={async (code) => {
              setError(null);
              try {
                await checkResetCode({ userId, token, code });
                setStep({ name: 'password', code });
              } catch (cause) {
                setError(failureText(cause, MSG.resetCodeNotVerified));
              }
            }}
          />
          {requestAgain}
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard eyebrow="Step 2 of 2" title="Choose a new password">
      <Stack gap="md">
        <NewPasswordForm
          submitLabel="Change password"
          passwordError={passwordError}
          alert={error && <FormAlert title="Password not changed">{error}</FormAlert>}
          onSubmit={async (password) => {
            setError(null);
            setPasswordError(null);
            try {
              await resetPassword({ userId, token, code: step.code, password });
              setStep({ name: 'done' });
            } catch (cause) {
              const onPassword = serverFieldErrors(cause).password;
              if (onPassword) setPasswordError(onPassword);
              else setError(failureText(cause, MSG.resetFailed));
            }
          }}
        />
        {requestAgain}
      </Stack>
    </AuthCard>
  );
}
