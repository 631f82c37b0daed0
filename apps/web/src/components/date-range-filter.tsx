import { DATE_RANGE_MESSAGE } from '@allot/domain/audit';
import { Group, TextInput } from '@mantine/core';
import type { DateRange } from '../lib/query-keys';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` of the URL that is a real day, else '' (a hand-edited URL never becomes a 400). */
export function readDay(value: string | null): string {
  if (!value || !DAY.test(value)) return '';
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value ? value : '';
}

/** The range as the server may be asked it: a start after the end is not asked (the fields say why). */
export function validRange(range: DateRange): boolean {
  return !range.from || !range.to || range.from <= range.to;
}

/**
 * 'From' and 'To' of a log, both days included (CONTRACT §10, UTC days). The browser's date field: typed or
 * picked, with the keyboard or a calendar.
 */
export function DateRangeFilter({
  range,
  onChange,
}: {
  range: DateRange;
  onChange: (next: Partial<DateRange>) => void;
}) {
  const wrong = !validRange(range);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <TextInput
        type="date"
        label="From"
        value={range.from}
        max={range.to || undefined}
        onChange={(event) => onChange({ from: readDay(event.currentTarget.value) })}
        error={wrong ? DATE_RANGE_MESSAGE : undefined}
        w={160}
      />
      <TextInput
        type="date"
        label="To"
        value={range.to}
        min={range.from || undefined}
        onChange={(event) => onChange({ to: readDay(event.currentTarget.value) })}
        error={wrong ? true : undefined}
        w={160}
      />
    </Group>
  );
}
