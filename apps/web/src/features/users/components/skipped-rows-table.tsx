import {
  IMPORT_SKIP_MESSAGE,
  IMPORT_SKIP_REASONS,
  type ImportRow,
  type SkippedRow,
} from '@allot/domain/users';
import { Button, Group, List, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { BreakableEmail } from '../../../components/breakable-email';
import { formatCount, formatCountOf } from '../../../lib/format';
import { downloadCsv } from '../csv/download-csv';
import { skippedRowsCsv } from '../csv/skipped-rows-csv';

/** Rows drawn at once: a file of 10,000 rows must not become 10,000 table rows in a dialog. */
export const SHOWN_ROWS = 200;

interface SkippedRowsTableProps {
  rows: SkippedRow[];
  caption: string;
  /** The file's rows (`source[i]` is row i + 2): the download then holds each row's columns to fix. */
  source?: readonly ImportRow[];
}

/**
 * Rows of the file that are (or were) not imported: how many for each reason, the first rows with their
 * reason (row numbers as a spreadsheet shows them: the header is row 1), and every row as a CSV download
 * with its reason, whatever the count.
 */
export function SkippedRowsTable({ rows, caption, source }: SkippedRowsTableProps) {
  if (rows.length === 0) return null;
  const byReason = IMPORT_SKIP_REASONS.map((reason) => ({
    reason,
    count: rows.filter((r) => r.reason === reason).length,
  })).filter((r) => r.count > 0);
  return (
    <Stack gap={6}>
      {byReason.length > 1 && (
        <List size="sm" spacing={0} aria-label={`${caption} by reason`}>
          {byReason.map(({ reason, count }) => (
            <List.Item key={reason}>
              {formatCount(count)} × {IMPORT_SKIP_MESSAGE[reason]}
            </List.Item>
          ))}
        </List>
      )}
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
            {rows.slice(0, SHOWN_ROWS).map((row) => (
              <Table.Tr key={`${row.row}-${row.reason}`}>
                <Table.Td>{row.row}</Table.Td>
                <Table.Td style={{ overflowWrap: 'break-word' }}>
                  {row.email ? (
                    <BreakableEmail email={row.email} />
                  ) : (
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
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {rows.length > SHOWN_ROWS
            ? `The first ${formatCount(SHOWN_ROWS)} of ${formatCount(rows.length)} rows are shown.`
            : `${formatCountOf(rows.length, 'row', 'rows')}, each with its reason.`}
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} aria-hidden="true" />}
          onClick={() => downloadCsv('skipped-rows.csv', skippedRowsCsv(rows, source))}
        >
          Download skipped rows
        </Button>
      </Group>
    </Stack>
  );
}
