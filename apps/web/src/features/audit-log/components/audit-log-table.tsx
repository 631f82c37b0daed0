import { AUDIT_ACTION_LABEL, type AuditEntry } from '@allot/domain/audit';
import { Anchor, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { BreakableEmail } from '../../../components/breakable-email';
import { DateCell, PersonCell } from '../../../components/table-cells';
import { changeLines } from '../change-text';

function Change({ entry }: { entry: AuditEntry }) {
  const lines = changeLines(entry.before, entry.after);
  if (lines.length === 0)
    return (
      <Text size="sm" c="dimmed" aria-label="No details">
        —
      </Text>
    );
  return (
    <Stack gap={0}>
      {lines.map((line) => (
        <Text key={line} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * What a change was made to. A member's label is "Name <email>" (the server writes it so, and the CSV keeps it):
 * the name on its line, the address below it, broken at its parts rather than letter by letter.
 */
function Target({ target }: { target: AuditEntry['target'] }) {
  const member = target.type === 'member' ? /^(.*) <([^<>]+@[^<>]+)>$/.exec(target.label) : null;
  if (!member)
    return (
      <Text size="sm" style={{ overflowWrap: 'break-word' }}>
        {target.label || '—'}
      </Text>
    );
  return (
    <Stack gap={0}>
      <Text size="sm">{member[1] || member[2]}</Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'break-word' }}>
        <BreakableEmail email={member[2] ?? ''} />
      </Text>
    </Stack>
  );
}

/** The audit log's rows, newest first: date, action in words, organization, who, target and what changed. */
export function AuditLogTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table aria-label="Audit log" verticalSpacing="xs" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={170}>Date</Table.Th>
            <Table.Th w={170}>Action</Table.Th>
            <Table.Th w={170}>Organization</Table.Th>
            <Table.Th w={150}>By</Table.Th>
            <Table.Th w={190}>Target</Table.Th>
            <Table.Th>Change</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>
                <DateCell iso={entry.date} />
              </Table.Td>
              <Table.Td>
                {entry.action === 'credits_moved' ? (
                  <Anchor
                    component={Link}
                    to={`/${encodeURIComponent(entry.organization.id)}/credit-log`}
                    size="sm"
                  >
                    {AUDIT_ACTION_LABEL[entry.action]}
                  </Anchor>
                ) : (
                  <Text size="sm">{AUDIT_ACTION_LABEL[entry.action]}</Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {entry.organization.name || '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                <PersonCell person={entry.actor} />
              </Table.Td>
              <Table.Td>
                <Target target={entry.target} />
              </Table.Td>
              <Table.Td>
                <Change entry={entry} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
