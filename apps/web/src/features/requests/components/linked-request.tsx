import type { UpTreeRequest } from '@allot/domain/requests';
import { Alert, Anchor, CloseButton, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { isApiError } from '../../../lib/api-error';
import { RequestItem } from './request-item';

interface LinkedRequestProps {
  /** The organization whose Requests screen this is. */
  organization: { id: string; name: string };
  query: UseQueryResult<UpTreeRequest>;
  /** Whether the caller may approve or decline a request of that kind asked of this organization. */
  decides: (request: UpTreeRequest) => boolean;
  /** Whether the caller may cancel this organization's own requests. */
  maySeeOwn: boolean;
  onApprove: (request: UpTreeRequest) => void;
  onDecline: (request: UpTreeRequest) => void;
  onCancel: (request: UpTreeRequest) => void;
  /** Leaves the request: the screen shows the list alone. */
  onClose: () => void;
}

/** Which side of the request this organization is: asked (incoming), asking (outgoing), or neither. */
export function sideOf(request: UpTreeRequest, organizationId: string): 'incoming' | 'outgoing' | null {
  if (request.parentOrganization.id === organizationId) return 'incoming';
  if (request.organization.id === organizationId) return 'outgoing';
  return null;
}

/**
 * The request a mail's link names (`?request=`, issue 33), above the list: the decider lands on it, with Approve
 * and Decline while it is open, and whoever asked sees its answer. It is read on its own (GET /api/request/{id}),
 * so it shows whatever page or status filter the list is on, and after it was decided.
 */
export function LinkedRequest({
  organization,
  query,
  decides,
  maySeeOwn,
  onApprove,
  onDecline,
  onCancel,
  onClose,
}: LinkedRequestProps) {
  const titleId = useId();
  const close = <CloseButton size="lg" aria-label="Close this request" title="Close" onClick={onClose} />;
  if (query.isPending) {
    return <Skeleton height={120} radius="md" aria-busy="true" aria-label="Loading the request" />;
  }
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) {
      return (
        <Alert
          variant="light"
          color="orange"
          icon={<IconAlertTriangle aria-hidden="true" />}
          title="This request could not be opened"
          withCloseButton
          closeButtonLabel="Close"
          onClose={onClose}
        >
          It does not exist, or it is a request of an organization you do not manage. The requests of{' '}
          {organization.name} are below.
        </Alert>
      );
    }
    return (
      <LoadError
        title="The request could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }
  const request = query.data;
  const side = sideOf(request, organization.id);
  const open = request.status === 'open';
  const heading =
    side === 'incoming' && open
      ? `${request.organization.name} is waiting for your answer`
      : side === 'incoming'
        ? `The request of ${request.organization.name}`
        : 'Your request';
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p="sm" bg="indigo.0">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text id={titleId} fw={700} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {heading}
          </Text>
          {close}
        </Group>
        <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
          <RequestItem
            request={request}
            incoming={side !== 'outgoing'}
            onApprove={side === 'incoming' && decides(request) ? onApprove : undefined}
            onDecline={side === 'incoming' && decides(request) ? onDecline : undefined}
            onCancel={side === 'outgoing' && maySeeOwn ? onCancel : undefined}
          />
        </Stack>
        {side === null && (
          <Text size="sm">
            It is not a request of {organization.name} or of an organization directly below it: open it on{' '}
            <Anchor
              component={Link}
              to={`/${encodeURIComponent(request.parentOrganization.id)}/requests?request=${encodeURIComponent(request.id)}`}
              inherit
            >
              the requests of {request.parentOrganization.name}
            </Anchor>
            .
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
