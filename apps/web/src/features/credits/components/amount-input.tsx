import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * The credits of a move, typed as text so that every wrong entry gets the spec's message ("only numbers",
 * "greater than zero") rather than being silently dropped; the phone keyboard shows digits.
 */
export function AmountInput(props: TextInputProps & { name: string }) {
  return (
    <TextInput
      required
      inputMode="numeric"
      autoComplete="off"
      placeholder="0"
      data-autofocus
      styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
      {...props}
    />
  );
}
