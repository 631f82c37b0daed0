import type { SkippedRow } from '@allot/domain/users';
import { ScrollArea, Table, Text } from '@mantine/core';

/** Rows of the file that are (or were) not imported, each with its reason. */
export function SkippedRowsTable({ rows, caption }: { rows: SkippedRow[]; caption: string }) {
  if (rows.length === 0) return null;
  return (
    <ScrollArea.Autosize mah={220} type="auto">
      <Table striped withTableBorder fz="sm" aria-label={caption} stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={70}>Row</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={`${row.row}-${row.reason}`}>
              <Table.Td>{row.row}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {row.email || (
                  <Text span c="dimmed" fs="italic" inherit>
                    empty
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{row.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
