import { MSG } from '@allot/domain/messages';
import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import { resendVerification } from '../api/resend-verification';

interface ResendVerificationProps {
  email: string;
  label?: string;
}

/** "Resend verification": a new code to an address that is not verified yet (the answer never tells). */
export function ResendVerification({ email, label = 'Resend verification email' }: ResendVerificationProps) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');

  async function send() {
    setState('sending');
    try {
      await resendVerification({ email });
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
      <Button variant="light" size="xs" loading={state === 'sending'} onClick={() => void send()}>
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
