import { TextInput, type TextInputProps } from '@mantine/core';

/** Where the invoice is mailed: the signed-in person's address unless changed. */
export function CustomerEmailInput(props: TextInputProps & { name: string }) {
  return (
    <TextInput
      label="Customer email"
      description="The invoice is sent to this address."
      type="email"
      autoComplete="email"
      required
      {...props}
    />
  );
}
