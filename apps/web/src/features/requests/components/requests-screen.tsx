import { DEFAULT_PAGE_SIZE } from '@allot/domain/pagination';
import {
  REQUEST_STATUS_LABEL,
  REQUEST_STATUSES,
  type RequestDirection,
  type RequestStatus,
  type UpTreeRequest,
} from '@allot/domain/requests';
import {
  Card,
  EmptyState,
  Group,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconInbox, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../components/load-error';
import { PagedSection } from '../../../components/paged-section';
import { formatCount } from '../../../lib/format';
import { pageParam, readPage } from '../../../lib/list-params';
import { knownPages } from '../../../lib/paging';
import { useListUrl } from '../../../lib/use-list-url';
import { useCurrentOrganization } from '../../organizations/api/use-current-organization';
import { useAbove } from '../api/get-above';
import { useRequest } from '../api/get-request';
import { useRequests } from '../api/get-requests';
import { useRequestRights } from '../hooks/use-request-rights';
import { ApproveRequestModal } from './approve-request-modal';
import { AskAboveButton } from './ask-above-button';
import { CancelRequestModal } from './cancel-request-modal';
import { DeclineRequestModal } from './decline-request-modal';
import { LinkedRequest } from './linked-request';
import { RequestItem } from './request-item';

type Shown = RequestStatus | 'all';
const SHOWN: Shown[] = [...REQUEST_STATUSES, 'all'];
const DIRECTION_PARAM = 'direction';
const STATUS_PARAM = 'status';
const PAGE_PARAM = 'page';
/** `?request=`: one request opened above the list (a mail's link, issue 33). */
const REQUEST_PARAM = 'request';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Incoming opens on what waits for an answer; one's own requests on all of them, answers included. */
const DEFAULT_STATUS: Record<RequestDirection, Shown> = { incoming: 'open', outgoing: 'all' };

function Loading() {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading the requests">
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} height={92} radius="md" />
      ))}
    </Stack>
  );
}

function emptyText(
  direction: RequestDirection,
  status: Shown,
  organization: string,
  parent: string,
): { title: string; description: string } {
  if (direction === 'incoming') {
    if (status === 'open')
      return {
        title: 'Nothing to decide',
        description: `No organization below ${organization} is waiting for an answer.`,
      };
    if (status === 'all')
      return {
        title: 'No requests yet',
        description: `No organization below ${organization} has asked for credits or seats yet.`,
      };
    return {
      title: `No ${REQUEST_STATUS_LABEL[status].toLowerCase()} requests`,
      description: `None of the requests of the organizations below ${organization} is ${REQUEST_STATUS_LABEL[status].toLowerCase()}.`,
    };
  }
  if (status === 'all')
    return {
      title: 'No requests yet',
      description: `${organization} has not asked ${parent} for credits or seats yet.`,
    };
  return {
    title: `No ${REQUEST_STATUS_LABEL[status].toLowerCase()} requests`,
    description: `None of the requests of ${organization} to ${parent} is ${REQUEST_STATUS_LABEL[status].toLowerCase()}.`,
  };
}

/**
 * Requests (CONTRACT §11): what the organizations directly below ask this one for (Incoming, for those who
 * allocate here: approve or decline), and what this one asked of the organization above (Ours: cancel while
 * open). The direction, the status and the page are in the URL.
 */
export function RequestsScreen() {
  const organization = useCurrentOrganization();
  useDocumentTitle(`Requests · ${organization.name} · Allot`);
  const rights = useRequestRights(organization);
  const { data: above } = useAbove(organization.id, rights.manages);
  const parentName = above?.parent?.name ?? 'the organization above';
  const hasParent = organization.parentOrganizationId !== null;
  const mayIncoming = rights.mayDecide;
  const mayOutgoing = rights.manages && hasParent;

  const { params, write } = useListUrl();
  const wantedDirection = params.get(DIRECTION_PARAM);
  const direction: RequestDirection =
    (wantedDirection === 'outgoing' && mayOutgoing) || !mayIncoming ? 'outgoing' : 'incoming';
  const wantedStatus = params.get(STATUS_PARAM) as Shown | null;
  const status: Shown =
    wantedStatus && SHOWN.includes(wantedStatus) ? wantedStatus : DEFAULT_STATUS[direction];
  const page = readPage(params, PAGE_PARAM);
  const shown = direction === 'incoming' ? mayIncoming : mayOutgoing;

  const { data, isPending, isError, error, refetch, isRefetching, isFetching } = useRequests(
    organization.id,
    { direction, status: status === 'all' ? '' : status, page, limit: DEFAULT_PAGE_SIZE },
    shown,
  );
  const askedFor = params.get(REQUEST_PARAM);
  const linkedId = askedFor && UUID.test(askedFor) ? askedFor : null;
  const linked = useRequest(organization.id, linkedId, rights.manages);
  const [approving, setApproving] = useState<UpTreeRequest | null>(null);
  const [declining, setDeclining] = useState<UpTreeRequest | null>(null);
  const [cancelling, setCancelling] = useState<UpTreeRequest | null>(null);

  // A request just sent is shown where it now is, under Ours with every status, not behind Incoming.
  const showOurs = () =>
    write({ [DIRECTION_PARAM]: 'outgoing', [STATUS_PARAM]: null, [PAGE_PARAM]: null }, 'push');

  const intro =
    mayIncoming && mayOutgoing
      ? `Credits and seats the organizations below ${organization.name} ask for, and what ${organization.name} asked of ${parentName}.`
      : mayIncoming
        ? `Credits and seats the organizations below ${organization.name} ask for. Approving one gives them at once.`
        : `Credits and seats ${organization.name} asked of ${parentName}, and the answers.`;
  const heading = (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={4} style={{ flex: '1 1 320px' }}>
        <Title order={1} fz="h2">
          Requests
        </Title>
        {(mayIncoming || mayOutgoing) && (
          <Text c="dimmed" size="sm">
            {intro}
          </Text>
        )}
      </Stack>
      {rights.mayAsk && <AskAboveButton organization={organization} onSent={showOurs} />}
    </Group>
  );

  if (!rights.manages) {
    return (
      <Stack gap="lg">
        {heading}
        <Card py="xl">
          <EmptyState
            icon={<IconLock />}
            title="No access"
            description={`Only the owners and admins of ${organization.name} see its requests.`}
            variant="light"
          />
        </Card>
      </Stack>
    );
  }
  if (!mayIncoming && !mayOutgoing) {
    return (
      <Stack gap="lg">
        {heading}
        <Card py="xl">
          <EmptyState
            icon={<IconInbox />}
            title="Nothing to ask or decide here"
            description={`${organization.name} has no organization above it to ask, and none below it that could ask.`}
            variant="light"
          />
        </Card>
      </Stack>
    );
  }

  const linkedRequest = linkedId && (
    <LinkedRequest
      organization={organization}
      query={linked}
      decides={(request) => rights.decides(request.kind)}
      maySeeOwn={mayOutgoing}
      onApprove={setApproving}
      onDecline={setDeclining}
      onCancel={setCancelling}
      onClose={() => write({ [REQUEST_PARAM]: null }, 'push')}
    />
  );
  const openIncoming = above?.openRequests ?? 0;
  // The request opened above is not listed a second time (it would read as two requests).
  const shownAbove = linked.data?.id;
  const records = (data?.data ?? []).filter((request) => request.id !== shownAbove);
  const onlyTheOneAbove = records.length === 0 && (data?.data.length ?? 0) > 0;
  const empty = emptyText(direction, status, organization.name, parentName);

  return (
    <Stack gap="lg">
      {heading}
      {linkedRequest}
      <Group gap="md" align="flex-end" component="section" aria-label="Filters">
        {mayIncoming && mayOutgoing && (
          <SegmentedControl
            aria-label="Whose requests"
            value={direction}
            onChange={(value) =>
              write(
                {
                  [DIRECTION_PARAM]: value === 'incoming' ? null : value,
                  [STATUS_PARAM]: null,
                  [PAGE_PARAM]: null,
                },
                'push',
              )
            }
            data={[
              {
                value: 'incoming',
                label: openIncoming > 0 ? `Incoming (${formatCount(openIncoming)} open)` : 'Incoming',
              },
              { value: 'outgoing', label: 'Ours' },
            ]}
          />
        )}
        <Select
          label="Status"
          value={status}
          onChange={(value) =>
            write(
              {
                [STATUS_PARAM]: !value || value === DEFAULT_STATUS[direction] ? null : value,
                [PAGE_PARAM]: null,
              },
              'push',
            )
          }
          data={SHOWN.map((s) => ({ value: s, label: s === 'all' ? 'All' : REQUEST_STATUS_LABEL[s] }))}
          allowDeselect={false}
          w={180}
        />
      </Group>

      {isPending ? (
        <Loading />
      ) : isError && !data ? (
        <LoadError
          title="The requests could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : onlyTheOneAbove ? (
        <Text size="sm" c="dimmed">
          No other request on this page.
        </Text>
      ) : records.length === 0 ? (
        <Card py="xl">
          <EmptyState
            icon={<IconInbox />}
            title={empty.title}
            description={empty.description}
            variant="light"
          >
            {direction === 'outgoing' && status === 'all' && rights.mayAsk && (
              <Group mt="md" justify="center">
                <AskAboveButton organization={organization} variant="light" onSent={showOurs} />
              </Group>
            )}
          </EmptyState>
        </Card>
      ) : (
        <PagedSection
          page={page}
          total={data ? knownPages(data.pagination) : 1}
          onChange={(next) => write(pageParam(PAGE_PARAM, next), 'push')}
          label="Requests pages"
        >
          {isError && (
            <LoadError
              title="The requests could not be refreshed"
              error={error}
              onRetry={() => void refetch()}
              retrying={isRefetching}
            />
          )}
          <Stack
            component="ul"
            gap="sm"
            m={0}
            p={0}
            aria-label={direction === 'incoming' ? 'Incoming requests' : 'Our requests'}
            aria-busy={isFetching && !isRefetching}
            style={{ listStyle: 'none' }}
          >
            {records.map((request) => (
              <RequestItem
                key={request.id}
                request={request}
                incoming={direction === 'incoming'}
                onApprove={
                  direction === 'incoming' && rights.decides(request.kind) ? setApproving : undefined
                }
                onDecline={
                  direction === 'incoming' && rights.decides(request.kind) ? setDeclining : undefined
                }
                onCancel={direction === 'outgoing' ? setCancelling : undefined}
              />
            ))}
          </Stack>
        </PagedSection>
      )}

      <ApproveRequestModal request={approving} decider={organization} onClose={() => setApproving(null)} />
      <DeclineRequestModal request={declining} onClose={() => setDeclining(null)} />
      <CancelRequestModal request={cancelling} onClose={() => setCancelling(null)} />
    </Stack>
  );
}
