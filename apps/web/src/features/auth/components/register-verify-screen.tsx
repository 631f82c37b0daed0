import { emailSchema } from '@allot/domain/auth';
import { MSG } from '@allot/domain/messages';
import { Anchor, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { verifyEmail } from '../api/verify-email';
import { useSignInWithNewPassword } from '../hooks/use-complete-sign-in';
import { CodeSteps } from './code-steps';
import { DoneCard } from './done-card';
import { ResendVerification } from './resend-verification';

/**
 * /register/verify?email=…[&new=1]: the code of an invitation or verification mail; an invited account then
 * chooses its password and is signed in.
 */
export function RegisterVerifyScreen() {
  const [params] = useSearchParams();
  const fromLink = params.get('email')?.trim() ?? '';
  const [email, setEmail] = useState(fromLink);
  const [emailError, setEmailError] = useState<string | null>(null);
  /** Verified; `message` when signing in afterwards was refused (e.g. a teacher has no panel access). */
  const [done, setDone] = useState<{ message: string | null } | null>(null);
  const signInWith = useSignInWithNewPassword();
  useDocumentTitle('Verify your email · Allot');
  const validEmail = emailSchema.safeParse(email).success;
  // The link of the mail names the address: shown, not edited.
  const emailFromLink = fromLink !== '' && emailSchema.safeParse(fromLink).success;

  function emailIsValid(): boolean {
    const parsed = emailSchema.safeParse(email);
    setEmailError(parsed.success ? null : (parsed.error.issues[0]?.message ?? MSG.invalidEmail));
    return parsed.success;
  }

  async function signInAfterwards(password: string | undefined) {
    const refused = password ? await signInWith(email.trim(), password) : null;
    if (!password || refused) setDone({ message: refused });
  }

  if (done) {
    return (
      <DoneCard title="Your email is verified" action={{ label: 'Sign in', to: '/login' }}>
        {done.message ?? 'Sign in with your email and password.'}
      </DoneCard>
    );
  }

  return (
    <CodeSteps
      title="Verify your email"
      description="Enter the 6-digit code from your invitation or verification email."
      codeLabel="Verification code"
      submitLabel="Verify"
      failureTitle="Verification failed"
      failureText={MSG.verificationFailed}
      email={email.trim()}
      passwordSubmitLabel="Set password and sign in"
      ready={emailIsValid}
      // The invitation of a new account says so (`new=1`): its password is chosen with the code.
      passwordFirst={params.get('new') === '1'}
      submit={async (code, password) => {
        await verifyEmail({ email: email.trim(), code, ...(password ? { password } : {}) });
      }}
      onDone={signInAfterwards}
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
      below={
        <Stack gap="md">
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
      }
    />
  );
}
