import { MSG } from '@allot/domain/messages';
import { Button, Text } from '@mantine/core';
import { useState } from 'react';

interface ResendCodeProps {
  email: string;
  /** The call that mails a new code (it answers alike whatever the address). */
  send: () => Promise<unknown>;
  label?: string;
}

/** "Send a new code" for a code mailed to `email`: a sent state, or the failure, in place of the button. */
export function ResendCode({ email, send, label = 'Send a new code' }: ResendCodeProps) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');

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
        A new code is on its way to <strong>{email}</strong>. It expires in 30 minutes.
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
