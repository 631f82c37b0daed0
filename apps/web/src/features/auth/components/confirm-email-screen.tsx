import { APP_MSG } from '@allot/domain/messages';
import { useDocumentTitle } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { useParams } from 'react-router';
import { queryClient } from '../../../lib/query-client';
import { getSession, updateSession } from '../../../lib/session';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { confirmEmailChange } from '../api/confirm-email-change';
import { CodeSteps } from './code-steps';
import { DoneCard } from './done-card';

/**
 * /email/confirm/{userId}/{token}: the link of the mail to a new address. The code makes it the account's
 * email (CONTRACT §3); every other session of the account ends. Signed in as that account, the session
 * keeps going with the new address.
 */
export function ConfirmEmailScreen() {
  const { userId = '', token = '' } = useParams();
  const confirmed = useRef<string | null>(null);
  const [done, setDone] = useState<{ email: string; signedIn: boolean } | null>(null);
  const { emailChange } = useMailWords();
  useDocumentTitle('Confirm your new email · Allot');

  async function afterConfirming() {
    const email = confirmed.current ?? '';
    const session = getSession();
    const own = session.signedIn && session.userId === userId;
    if (own) {
      updateSession({ userEmail: email });
      // Every query, not a key of lib/query-keys.ts: the address shows wherever the account does.
      await queryClient.invalidateQueries();
    }
    setDone({ email, signedIn: own });
  }

  if (done) {
    return (
      <DoneCard
        title="Your email is changed"
        action={done.signedIn ? { label: 'Back to Allot', to: '/' } : { label: 'Sign in', to: '/login' }}
      >
        The account now uses <strong>{done.email}</strong>: sign in and receive mail there. Every other
        session of the account was signed out.
      </DoneCard>
    );
  }

  return (
    <CodeSteps
      title="Confirm your new email"
      description={emailChange.codePage}
      codeLabel="Confirmation code"
      submitLabel="Confirm the new email"
      failureTitle="The email was not changed"
      failureText={APP_MSG.emailChangeNotConfirmed}
      email=""
      passwordSubmitLabel="Set password and confirm"
      submit={async (code, password) => {
        const answer = await confirmEmailChange({ userId, token, code, ...(password ? { password } : {}) });
        confirmed.current = answer.email;
      }}
      onDone={afterConfirming}
    />
  );
}
