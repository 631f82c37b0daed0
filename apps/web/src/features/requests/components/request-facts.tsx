import type { UpTreeRequest } from '@allot/domain/requests';
import { Paper, Stack, Text } from '@mantine/core';
import { formatDateShort } from '../../../lib/format';
import { askedText } from '../forms/request-texts';

/** What a decision dialog is about: who asks for what, who asked and when, and their note. */
export function RequestFacts({ request }: { request: UpTreeRequest }) {
  return (
    <Paper withBorder radius="md" px="md" py="sm">
      <Stack gap={4}>
        <Text size="sm">
          <Text span fw={600} inherit>
            {request.organization.name}
          </Text>{' '}
          asks for {askedText(request)}.
        </Text>
        <Text size="xs" c="dimmed">
          Asked{request.createdBy?.name ? ` by ${request.createdBy.name}` : ''} ·{' '}
          {formatDateShort(request.createdAt)}
        </Text>
        {request.note && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            <Text span c="dimmed" inherit>
              Note:{' '}
            </Text>
            {request.note}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
