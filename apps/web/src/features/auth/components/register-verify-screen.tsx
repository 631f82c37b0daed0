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
import { TeacherDoneCard } from './teacher-done-card';

/**
 * /register/verify?email=…[&new=1][&for=teacher]: the code of an invitation or verification mail; an invited
 * account then chooses its password and is signed in. `new=1`: the account has no password yet, so the page
 * asks for it with the code. A teacher's mail says `for=teacher` (issue 33): the page speaks to a teacher and
 * ends on "you are done", never on a panel sign-in that would refuse them; a teacher who came by an older link
 * gets the same end once the sign-in says they have no panel access.
 */
export function RegisterVerifyScreen() {
  const [params] = useSearchParams();
  const fromLink = params.get('email')?.trim() ?? '';
  const teacherLink = params.get('for') === 'teacher';
  const [email, setEmail] = useState(fromLink);
  const [emailError, setEmailError] = useState<string | null>(null);
  /** Verified; `message` when signing in afterwards was refused; `teacher`: their invitation ends here. */
  const [done, setDone] = useState<{ message: string | null; teacher: boolean } | null>(null);
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
    if (teacherLink) {
      setDone({ message: null, teacher: true });
      return;
    }
    const refused = password ? await signInWith(email.trim(), password) : null;
    if (!password || refused)
      setDone({ message: refused?.message ?? null, teacher: refused?.teacher ?? false });
  }

  if (done?.teacher) {
    return <TeacherDoneCard title="You are all set" done={`Your email ${email.trim()} is verified.`} />;
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
      description={
        teacherLink
          ? 'Enter the 6-digit code from your email. It is all a teacher needs to do here.'
          : 'Enter the 6-digit code from your invitation or verification email.'
      }
      codeLabel="Verification code"
      submitLabel="Verify"
      failureTitle="Verification failed"
      failureText={MSG.verificationFailed}
      email={email.trim()}
      passwordSubmitLabel={teacherLink ? 'Set password' : 'Set password and sign in'}
      // A teacher signs in to nothing here: the password is the Allot account's, not a sign-in to come.
      passwordDescription={
        teacherLink ? (
          <>
            Your account is new. Choose a password for your Allot account, <strong>{email.trim()}</strong>.
            You keep signing in to the classroom product as usual.
          </>
        ) : undefined
      }
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
