import type { UpTreeRequest } from '@allot/domain/requests';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useId } from 'react';
import { formatDateLong, formatDateShort } from '../../../lib/format';
import { askedText, DECIDED_VERB, decisionText } from '../forms/request-texts';
import { RequestStatusBadge } from './request-status-badge';

interface RequestItemProps {
  request: UpTreeRequest;
  /** Incoming: the asking organization heads the item. */
  incoming: boolean;
  onApprove?: (request: UpTreeRequest) => void;
  onDecline?: (request: UpTreeRequest) => void;
  onCancel?: (request: UpTreeRequest) => void;
}

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateLong(iso)}>
      {formatDateShort(iso)}
    </time>
  );
}

/** "by Adam Reyes", or nothing when nobody is named (made by the system, or someone no longer shown). */
function byWhom(person: UpTreeRequest['createdBy']): string {
  return person?.name ? ` by ${person.name}` : '';
}

/** A quoted text the people of the other organization wrote (a note, a reason), kept as they wrote it. */
function Quoted({ label, children }: { label: string; children: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      <Text span c="dimmed" inherit>
        {label}:{' '}
      </Text>
      {children}
    </Text>
  );
}

/**
 * One request in a list: who asks for what (the organization first when it is incoming), who asked and when,
 * the note, the decision with its reason, and the actions its status allows here.
 */
export function RequestItem({ request, incoming, onApprove, onDecline, onCancel }: RequestItemProps) {
  const titleId = useId();
  const open = request.status === 'open';
  const decided = decisionText(request);
  const actions = open && (onApprove || onDecline || onCancel);
  return (
    <Paper component="li" withBorder radius="md" px="md" py="sm" aria-labelledby={titleId}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
          <Text id={titleId} fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {incoming ? request.organization.name : askedText(request)}
          </Text>
          <RequestStatusBadge status={request.status} />
        </Group>
        {incoming && <Text size="sm">{askedText(request)}</Text>}
        <Text size="xs" c="dimmed">
          Asked{byWhom(request.createdBy)} · <When iso={request.createdAt} />
        </Text>
        {request.note && <Quoted label="Note">{request.note}</Quoted>}
        {request.status !== 'open' && request.decidedAt && (
          <Text size="xs" c="dimmed">
            {DECIDED_VERB[request.status]}
            {byWhom(request.decidedBy)} · <When iso={request.decidedAt} />
            {decided ? ` · ${decided}` : ''}
          </Text>
        )}
        {request.status === 'declined' && request.reason && <Quoted label="Reason">{request.reason}</Quoted>}
        {actions && (
          <Group justify="flex-end" gap="xs" mt={2}>
            {onCancel && (
              <Button size="xs" variant="default" onClick={() => onCancel(request)}>
                Cancel request
              </Button>
            )}
            {onDecline && (
              <Button
                size="xs"
                variant="default"
                leftSection={<IconX size={14} aria-hidden="true" />}
                onClick={() => onDecline(request)}
              >
                Decline
              </Button>
            )}
            {onApprove && (
              <Button
                size="xs"
                leftSection={<IconCheck size={14} aria-hidden="true" />}
                onClick={() => onApprove(request)}
              >
                Approve
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
