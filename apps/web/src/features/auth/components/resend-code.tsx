import { MSG } from '@allot/domain/messages';
import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import { useMailWords } from '../../mail/hooks/use-mail-words';

interface ResendCodeProps {
  email: string;
  /** The call that mails a new code (it answers alike whatever the address). */
  send: () => Promise<unknown>;
  label?: string;
}

/**
 * "Send a new code" for a code mailed to `email` (verification, invitation): a sent (or queued) state, or the
 * failure, in place of the button. The earlier code works on until it expires (decision 003).
 */
export function ResendCode({ email, send, label = 'Send a new code' }: ResendCodeProps) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const { newCode } = useMailWords();

  async function resend() {
    setState('sending');
    try {
      await send();
      setState('sent');
    } catch {
      setState('failed');
    }
  }

  if (state === 'sent') {
    return (
      <Text size="sm" role="status">
        {newCode.lead} <strong>{email}</strong>. {newCode.rest}
      </Text>
    );
  }
  return (
    <>
      <Button variant="light" size="xs" loading={state === 'sending'} onClick={() => void resend()}>
        {label}
      </Button>
      {state === 'failed' && (
        <Text size="sm" c="red.8" role="status">
          {MSG.somethingWentWrong}
        </Text>
      )}
    </>
  );
}
