import { LICENSE_TYPE_LABEL } from '@allot/domain/organizations';
import { ROLE_LABEL } from '@allot/domain/roles';
import type { BulkImportPreview, ImportRow } from '@allot/domain/users';
import { Alert, Button, Grid, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { BreakableEmail } from '../../../components/breakable-email';
import { DialogFoot } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { ImportSeatLimit } from './import-seat-limit';
import { importSeatsText } from './import-seats-text';
import { SHOWN_ROWS, SkippedRowsTable } from './skipped-rows-table';

function Figure({ label, value, hint }: { label: string; value: string; hint?: ReactNode }) {
  return (
    <Paper withBorder px="md" py="sm" h="100%" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} fz="lg">
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

interface ImportPreviewStepProps {
  fileName: string;
  /** The file's rows, for the download of skipped rows. */
  rows: readonly ImportRow[];
  /** What the file left to a default (no role column), said above the figures. */
  notes: readonly string[];
  preview: BulkImportPreview;
  organizationId: string;
  canBuySeats: boolean;
  importing: boolean;
  error: string | null;
  onImport: () => void;
  onChooseAnother: () => void;
}

/** Step 2: what the import would do, computed by the server, before anything is written. */
export function ImportPreviewStep({
  fileName,
  rows,
  notes,
  preview,
  organizationId,
  canBuySeats,
  importing,
  error,
  onImport,
  onChooseAnother,
}: ImportPreviewStepProps) {
  const count = preview.toAdd.length;
  const { free, needed } = preview.seats;
  const short = free !== null && needed > free;
  const words = useMailWords();
  return (
    <Stack gap="md">
      {error && <FormAlert title="Import failed">{error}</FormAlert>}
      <Text size="sm">
        Preview of <b>{fileName}</b>. Nothing has been added yet.
      </Text>
      {notes.map((note) => (
        <Alert key={note} color="blue" variant="light" p="xs">
          <Text size="sm">{note}</Text>
        </Alert>
      ))}
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, sm: 3 }}>
          <Figure label="To add" value={formatCountOf(count, 'user', 'users')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 3 }}>
          <Figure label="Skipped" value={formatCountOf(preview.skipped.length, 'row', 'rows')} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Figure label="Licence seats" value={importSeatsText(preview.seats)} />
        </Grid.Col>
      </Grid>
      {short && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle aria-hidden="true" />}
          title="Not enough seats"
        >
          <Text size="sm">
            Only {formatCountOf(free, 'seat is', 'seats are')} free for {formatCount(needed)} users. The
            import stops when the seats run out: the users added until then stay added.
          </Text>
          <ImportSeatLimit organizationId={organizationId} canBuySeats={canBuySeats} />
        </Alert>
      )}
      {count > 0 && (
        <Stack gap={6}>
          <Title order={3} fz="sm">
            Users to add
          </Title>
          <ScrollArea.Autosize mah={200} type="auto">
            <Table striped withTableBorder fz="sm" aria-label="Users to add" stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={70}>Row</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Licence</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.toAdd.slice(0, SHOWN_ROWS).map((row) => (
                  <Table.Tr key={row.row}>
                    <Table.Td>{row.row}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'break-word' }}>
                      <BreakableEmail email={row.email} />
                    </Table.Td>
                    <Table.Td>{row.name}</Table.Td>
                    <Table.Td>{ROLE_LABEL[row.role]}</Table.Td>
                    <Table.Td>{row.licenseType ? LICENSE_TYPE_LABEL[row.licenseType] : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          {count > SHOWN_ROWS && (
            <Text size="xs" c="dimmed">
              and {formatCount(count - SHOWN_ROWS)} more
            </Text>
          )}
        </Stack>
      )}
      {preview.skipped.length > 0 && (
        <Stack gap={6}>
          <Title order={3} fz="sm">
            Rows that will be skipped
          </Title>
          <SkippedRowsTable rows={preview.skipped} caption="Rows that will be skipped" source={rows} />
        </Stack>
      )}
      <Text size="xs" c="dimmed">
        Row numbers are those a spreadsheet shows: the header is row 1, the first user row 2.{' '}
        {words.importNote}
      </Text>
      <DialogFoot justify="space-between">
        <Button variant="default" onClick={onChooseAnother} disabled={importing}>
          Choose another file
        </Button>
        <Button onClick={onImport} loading={importing} disabled={count === 0}>
          Import {formatCountOf(count, 'user', 'users')}
        </Button>
      </DialogFoot>
    </Stack>
  );
}
