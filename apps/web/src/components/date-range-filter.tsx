import { DATE_RANGE_MESSAGE } from '@allot/domain/audit';
import { Group, TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useState } from 'react';
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
 * A day field whose text is its own state, following the URL when the URL changes (Back, a link, Clear).
 * Bound to the URL alone, the field showed the URL of the render before the write landed: the browser's
 * date field then kept an old day on screen, and clearing it wrote nothing (the browser test caught it).
 */
function DayInput({
  day,
  onDay,
  ...props
}: { day: string; onDay: (day: string) => void } & Omit<TextInputProps, 'value' | 'onChange'>) {
  const [text, setText] = useState(day);
  useEffect(() => setText(day), [day]);
  return (
    <TextInput
      type="date"
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        onDay(readDay(next));
      }}
      w={160}
      {...props}
    />
  );
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
      <DayInput
        label="From"
        day={range.from}
        max={range.to || undefined}
        onDay={(from) => onChange({ from })}
        error={wrong ? DATE_RANGE_MESSAGE : undefined}
      />
      <DayInput
        label="To"
        day={range.to}
        min={range.from || undefined}
        onDay={(to) => onChange({ to })}
        error={wrong ? true : undefined}
      />
    </Group>
  );
}
