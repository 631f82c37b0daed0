import { Input, List, Stack, Text } from '@mantine/core';
import { useId } from 'react';

const SHOWN = 5;

export interface Party {
  id: string;
  name: string;
  /** Their balance, in words ("1,500 shared · 500 protected", "40 credits"). */
  detail: string;
}

/** The organizations or people a move involves (the first few, then how many more), with their balances. */
export function SelectedParties({ label, parties }: { label: string; parties: readonly Party[] }) {
  const id = useId();
  const more = parties.length - SHOWN;
  return (
    <Stack gap={4}>
      <Input.Label id={id} labelElement="div">
        {label}
      </Input.Label>
      <List
        size="sm"
        spacing={2}
        aria-labelledby={id}
        withPadding={parties.length > 1}
        listStyleType={parties.length > 1 ? 'disc' : 'none'}
      >
        {parties.slice(0, SHOWN).map((party) => (
          <List.Item key={party.id}>
            <Text span fw={600} inherit>
              {party.name}
            </Text>{' '}
            <Text span c="dimmed" inherit>
              {party.detail}
            </Text>
          </List.Item>
        ))}
        {more > 0 && (
          <List.Item>
            <Text span c="dimmed" inherit>
              and {more} more
            </Text>
          </List.Item>
        )}
      </List>
    </Stack>
  );
}
