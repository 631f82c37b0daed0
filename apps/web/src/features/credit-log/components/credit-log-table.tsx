import { CREDIT_ACTION_LABEL, type CreditLogEntry } from '@allot/domain/credits';
import { Table, Text } from '@mantine/core';
import { DateCell, PersonCell } from '../../../components/table-cells';
import { formatCount, formatSigned } from '../../../lib/format';

/**
 * A move within the organization (between its pools; between its members, which the server answers with the
 * amount moved) does not change what it holds: the amount, without a sign. A transfer from a member to someone
 * outside is negative and keeps its sign.
 */
function movedWithin(entry: CreditLogEntry): boolean {
  return entry.action === 'pool_transfer' || (entry.action === 'transfer_users' && entry.credits > 0);
}

function CreditsCell({ entry }: { entry: CreditLogEntry }) {
  if (movedWithin(entry) || entry.credits === 0) {
    return (
      <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatCount(Math.abs(entry.credits))}
      </Text>
    );
  }
  // teal.9 and red.9 keep 4.5:1 against white and the hovered row (WCAG AA).
  return (
    <Text
      size="sm"
      fw={600}
      c={entry.credits > 0 ? 'teal.9' : 'red.9'}
      style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
    >
      {formatSigned(entry.credits)}
    </Text>
  );
}

/** The credit log's rows: date, action in words, signed credits, description and who made the move. */
export function CreditLogTable({ entries }: { entries: CreditLogEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table aria-label="Credit log" verticalSpacing="xs" highlightOnHover striped={false}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={175}>Date</Table.Th>
            <Table.Th w={250}>Action</Table.Th>
            <Table.Th w={100} ta="right">
              Credits
            </Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th w={150}>By</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>
                <DateCell iso={entry.date} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {CREDIT_ACTION_LABEL[entry.action]}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <CreditsCell entry={entry} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {entry.description}
                </Text>
              </Table.Td>
              <Table.Td>
                <PersonCell person={entry.by} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
