import { TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef } from 'react';

/**
 * The 6-digit code of an authenticator app: a numeric keyboard on phones, and the browser or password manager
 * may fill it (`autocomplete="one-time-code"`).
 */
export const OneTimeCodeInput = forwardRef<HTMLInputElement, TextInputProps>(
  function OneTimeCodeInput(props, ref) {
    return (
      <TextInput
        ref={ref}
        placeholder="123456"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        styles={{ input: { fontSize: 20, letterSpacing: 6, fontVariantNumeric: 'tabular-nums' } }}
        {...props}
      />
    );
  },
);
