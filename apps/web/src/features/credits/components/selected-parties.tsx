import { Input, Stack } from '@mantine/core';
import { useId } from 'react';
import { type NamedItem, NameList } from '../../users/components/selected-names';

/** An organization or person in a move, with their balance in words ("1,500 shared · 500 protected", "40 credits"). */
export type Party = NamedItem;

/** The organizations or people a move involves (the first few, then how many more), with their balances. */
export function SelectedParties({ label, parties }: { label: string; parties: readonly Party[] }) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Input.Label id={id} labelElement="div">
        {label}
      </Input.Label>
      <NameList
        items={parties}
        aria-labelledby={id}
        withPadding={parties.length > 1}
        listStyleType={parties.length > 1 ? 'disc' : 'none'}
      />
    </Stack>
  );
}
