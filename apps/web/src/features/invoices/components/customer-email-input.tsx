import { TextInput, type TextInputProps } from '@mantine/core';
import { useMailWords } from '../../mail/hooks/use-mail-words';

/** Where the invoice is mailed: the signed-in person's address unless changed. */
export function CustomerEmailInput(props: TextInputProps & { name: string }) {
  const { invoiceTo } = useMailWords();
  return (
    <TextInput
      label="Customer email"
      description={invoiceTo}
      type="email"
      autoComplete="email"
      required
      {...props}
    />
  );
}
