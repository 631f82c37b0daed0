import { REQUEST_STATUS_LABEL, type RequestStatus } from '@allot/domain/requests';
import { Badge } from '@mantine/core';

const COLOR: Record<RequestStatus, string> = {
  open: 'blue',
  approved: 'teal',
  declined: 'red',
  cancelled: 'gray',
};

/** A request's status: Open, Approved, Declined or Cancelled. */
export function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return (
    <Badge variant="light" size="sm" color={COLOR[status]} style={{ flexShrink: 0, overflow: 'visible' }}>
      {REQUEST_STATUS_LABEL[status]}
    </Badge>
  );
}
