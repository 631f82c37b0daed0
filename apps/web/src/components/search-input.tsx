import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** The search box above a list: labelled for screen readers, the placeholder says what it searches. */
export function SearchInput({
  label,
  placeholder,
  value,
  onChange,
  maw = 360,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  maw?: number;
}) {
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      type="search"
      maw={maw}
    />
  );
}
