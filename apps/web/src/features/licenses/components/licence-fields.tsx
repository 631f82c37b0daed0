import { TextInput, type TextInputProps } from '@mantine/core';

/** The seats a licence holds, typed as text so that every wrong entry gets the spec's message. */
export function SeatsInput(props: TextInputProps & { name: string }) {
  return (
    <TextInput
      label="Seats"
      required
      inputMode="numeric"
      autoComplete="off"
      styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
      {...props}
    />
  );
}

/** The expiry as a day (the browser's date picker, keyboard included); stored as that day's midnight UTC. */
export function ExpiryInput(props: TextInputProps & { name: string }) {
  return (
    <TextInput label="Expiry date" type="date" required description="Midnight UTC of that day." {...props} />
  );
}
