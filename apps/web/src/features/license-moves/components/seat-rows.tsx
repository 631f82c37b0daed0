import type { LicenseType } from '@allot/domain/organizations';
import { Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { typeLabel } from '../forms/seats';
import type { useSeatAmounts } from '../hooks/use-seat-amounts';

export interface SeatRow {
  type: LicenseType;
  /** The seats in words under the type: "12 free · 18 in use", or why none can move. */
  figures: ReactNode;
  /** No seats of this type can move (an expired licence gives none): the input is greyed out. */
  disabled?: boolean;
}

interface SeatRowsProps {
  rows: readonly SeatRow[];
  /** Over the inputs: "Seats for each organization". */
  amountHeading: string;
  seats: ReturnType<typeof useSeatAmounts>;
}

function SeatRowField({ row, amountHeading, seats }: { row: SeatRow } & Omit<SeatRowsProps, 'rows'>) {
  const id = useId();
  const label = typeLabel(row.type);
  return (
    <Paper withBorder px="md" py="xs" role="group" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Stack gap={2} pt={6} style={{ minWidth: 0 }}>
          <Text component="label" htmlFor={id} size="sm" fw={600}>
            {label}
          </Text>
          <Text size="xs" c="dimmed" id={`${id}-figures`}>
            {row.figures}
          </Text>
        </Stack>
        <TextInput
          id={id}
          w={150}
          style={{ flexShrink: 0 }}
          aria-label={`${label}: ${amountHeading.toLowerCase()}`}
          aria-describedby={`${id}-figures`}
          inputMode="numeric"
          autoComplete="off"
          placeholder="0"
          disabled={row.disabled}
          value={row.disabled ? '' : seats.text(row.type)}
          onChange={(event) => seats.setText(row.type, event.currentTarget.value)}
          error={seats.error(row.type)}
          styles={{ input: { fontVariantNumeric: 'tabular-nums', textAlign: 'right' } }}
        />
      </Group>
    </Paper>
  );
}

/** One row per licence type: the type, its seats in words, and the seats to move (empty or 0: skipped). */
export function SeatRows({ rows, amountHeading, seats }: SeatRowsProps) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" px="md" aria-hidden="true">
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          Licence
        </Text>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase" w={150}>
          {amountHeading}
        </Text>
      </Group>
      {rows.map((row) => (
        <SeatRowField key={row.type} row={row} amountHeading={amountHeading} seats={seats} />
      ))}
      {seats.nothingError && (
        <Text size="sm" c="red.8" role="alert">
          {seats.nothingError}
        </Text>
      )}
    </Stack>
  );
}
