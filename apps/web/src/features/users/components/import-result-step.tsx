import { MSG } from '@allot/domain/messages';
import type { BulkImportResponse, ImportRow } from '@allot/domain/users';
import { Alert, Button, Group, List, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { formatCount, formatCountOf } from '../../../lib/format';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { ImportSeatLimit } from './import-seat-limit';
import { SHOWN_ROWS, SkippedRowsTable } from './skipped-rows-table';

interface ImportResultStepProps {
  result: BulkImportResponse;
  /** The file's rows, for the download of skipped rows. */
  rows: readonly ImportRow[];
  organizationId: string;
  canBuySeats: boolean;
  /** The server stopped at the licence seat limit (402): only some users were added. */
  limitReached: boolean;
  onDone: () => void;
}

/** Step 3: who was added and which rows were skipped, and why. */
export function ImportResultStep({
  result,
  rows,
  organizationId,
  canBuySeats,
  limitReached,
  onDone,
}: ImportResultStepProps) {
  const added = result.added.length;
  const words = useMailWords();
  return (
    <Stack gap="md">
      {limitReached ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle aria-hidden="true" />}
          title="Licence limit reached"
          role="alert"
        >
          <Text size="sm">{MSG.bulkLicenceLimit}</Text>
          <ImportSeatLimit organizationId={organizationId} canBuySeats={canBuySeats} />
        </Alert>
      ) : (
        <Alert
          color="green"
          variant="light"
          icon={<IconCircleCheck aria-hidden="true" />}
          title="Import finished"
        >
          {words.imported(added)}
          {result.skipped.length > 0
            ? `; ${formatCountOf(result.skipped.length, 'row was', 'rows were')} skipped.`
            : '.'}
        </Alert>
      )}
      <Stack gap={6}>
        <Title order={3} fz="sm">
          Added ({formatCount(added)})
        </Title>
        {added === 0 ? (
          <Text size="sm" c="dimmed">
            Nobody was added.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={160} type="auto">
            <List size="sm" spacing={2} aria-label="Added users">
              {result.added.slice(0, SHOWN_ROWS).map((user) => (
                <List.Item key={user.id}>
                  {user.name}{' '}
                  <Text span c="dimmed" inherit>
                    {user.email}
                  </Text>
                </List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
        )}
        {added > SHOWN_ROWS && (
          <Text size="xs" c="dimmed">
            and {formatCount(added - SHOWN_ROWS)} more: the users table lists everyone.
          </Text>
        )}
      </Stack>
      {result.skipped.length > 0 && (
        <Stack gap={6}>
          <Title order={3} fz="sm">
            Skipped ({formatCount(result.skipped.length)})
          </Title>
          <SkippedRowsTable rows={result.skipped} caption="Skipped rows" source={rows} />
          <Text size="xs" c="dimmed">
            Row numbers are those a spreadsheet shows: the header is row 1, the first user row 2.
          </Text>
        </Stack>
      )}
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
