import { Text, Tooltip } from '@mantine/core';
import { formatDateLong, formatDateShort } from '../lib/format';

/** A date in a table: short (or as `format` says), in full in its tooltip, one line. */
export function DateCell({
  iso,
  format = formatDateShort,
}: {
  iso: string;
  format?: (iso: string) => string;
}) {
  return (
    <Tooltip label={formatDateLong(iso)} openDelay={250}>
      <Text component="time" dateTime={iso} size="sm" style={{ whiteSpace: 'nowrap' }}>
        {format(iso)}
      </Text>
    </Tooltip>
  );
}

/**
 * Who made a change: the person's name (their email in its tooltip), someone outside the organization as the
 * server names them (no email, in italics: CONTRACT §5), or '—' for the system.
 */
export function PersonCell({ person }: { person: { name: string; email: string | null } | null }) {
  if (!person) {
    return (
      <Text size="sm" c="dimmed" aria-label="Nobody (made by the system)">
        —
      </Text>
    );
  }
  if (person.email === null) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {person.name}
      </Text>
    );
  }
  return (
    <Tooltip label={person.email} openDelay={250}>
      <Text size="sm">{person.name || person.email}</Text>
    </Tooltip>
  );
}
