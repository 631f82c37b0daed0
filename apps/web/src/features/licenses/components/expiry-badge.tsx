import { Badge } from '@mantine/core';
import { EXPIRY_LABEL, type ExpiryState } from '../forms/expiry';

/** "Expires soon" (within 30 days) or "Expired"; nothing for a licence that runs longer. */
export function ExpiryBadge({ state }: { state: ExpiryState }) {
  if (state === 'active') return null;
  return (
    <Badge variant="light" color={state === 'expired' ? 'red' : 'orange'} style={{ flexShrink: 0 }}>
      {EXPIRY_LABEL[state]}
    </Badge>
  );
}
