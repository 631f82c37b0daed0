import { emailSchema } from '@allot/domain/auth';
import { APP_MSG } from '@allot/domain/messages';
import { Anchor, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { queryClient } from '../../../lib/query-client';
import { getSession } from '../../../lib/session';
import { acceptInvitation } from '../api/accept-invitation';
import { resendInvitation } from '../api/resend-invitation';
import { useSignInWithNewPassword } from '../hooks/use-complete-sign-in';
import { CodeSteps } from './code-steps';
import { DoneCard } from './done-card';
import { ResendCode } from './resend-code';
import { TeacherDoneCard } from './teacher-done-card';

/**
 * /invitation?email=…&organization=…[&new=1][&for=teacher]: an account that already existed was invited to an organization
 * (CONTRACT §3) and joins it with the code of the mail. Signed in or not: the link comes from a mail. An
 * account without a password yet chooses one and is signed in; one signed in as the invited address goes
 * straight into the organization. A teacher's mail says `for=teacher` (issue 33): the page ends on "you are
 * done", never on a panel sign-in that would refuse them (so does a sign-in that answers no panel access).
 */
export function AcceptInvitationScreen() {
  const [params] = useSearchParams();
  const email = params.get('email')?.trim() ?? '';
  const organizationId = params.get('organization')?.trim() ?? '';
  const teacherLink = params.get('for') === 'teacher';
  const [done, setDone] = useState<{ message: string | null; teacher: boolean } | null>(null);
  const navigate = useNavigate();
  const signInWith = useSignInWithNewPassword();
  useDocumentTitle('Accept your invitation · Allot');

  if (!emailSchema.safeParse(email).success || !organizationId) {
    return (
      <DoneCard
        title="This invitation link is incomplete"
        action={{ label: 'Back to sign in', to: '/login' }}
      >
        Open the link from the invitation email again, or copy the whole address from it.
      </DoneCard>
    );
  }

  async function afterJoining(password: string | undefined) {
    // Every query, not a key of lib/query-keys.ts: a membership changes the picker, roles, members and seats.
    await queryClient.invalidateQueries();
    if (teacherLink) {
      setDone({ message: null, teacher: true });
      return;
    }
    const session = getSession();
    if (session.signedIn && session.userEmail?.toLowerCase() === email.toLowerCase()) {
      await navigate(`/${encodeURIComponent(organizationId)}`, { replace: true });
      return;
    }
    const refused = password ? await signInWith(email, password) : null;
    if (!password || refused)
      setDone({ message: refused?.message ?? null, teacher: refused?.teacher ?? false });
  }

  if (done?.teacher) {
    return <TeacherDoneCard title="You joined the organization" done={`${email} is a teacher there now.`} />;
  }

  if (done) {
    return (
      <DoneCard title="You joined the organization" action={{ label: 'Sign in', to: '/login' }}>
        {done.message ?? `Sign in as ${email} to open it.`}
      </DoneCard>
    );
  }

  return (
    <CodeSteps
      title="Accept your invitation"
      description="Enter the 6-digit code from your invitation email to join the organization."
      codeLabel="Invitation code"
      submitLabel="Join the organization"
      failureTitle="The invitation was not accepted"
      failureText={APP_MSG.invitationNotAccepted}
      email={email}
      passwordSubmitLabel={teacherLink ? 'Set password' : 'Set password and sign in'}
      // An account never set up (`new=1`, issue 33): its password goes with the code. One that has a password
      // enters the code alone: the code is the consent (CONTRACT §3), and it signs in as usual afterwards.
      passwordFirst={params.get('new') === '1'}
      submit={async (code, password) => {
        await acceptInvitation({ email, organizationId, code, ...(password ? { password } : {}) });
      }}
      onDone={afterJoining}
      before={
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          readOnly
          variant="filled"
        />
      }
      below={
        <Stack gap="md">
          <Group justify="space-between" gap="xs" align="center">
            <Text size="sm" c="dimmed">
              Code expired or lost?
            </Text>
            <ResendCode email={email} send={() => resendInvitation({ email, organizationId })} />
          </Group>
          <Anchor component={Link} to="/" size="sm" ta="center">
            Go to Allot
          </Anchor>
        </Stack>
      }
    />
  );
}
