import { INVOICE_STATUS_LABEL, type InvoiceStatus } from '@allot/domain/invoices';
import { Badge } from '@mantine/core';

const COLOR: Record<InvoiceStatus, string> = { open: 'blue', fulfilled: 'teal', void: 'gray' };

/** An invoice's status: Open, Fulfilled or Void. */
export function InvoiceStatusBadge({ status, size = 'sm' }: { status: InvoiceStatus; size?: 'sm' | 'md' }) {
  return (
    <Badge variant="light" size={size} color={COLOR[status]} style={{ flexShrink: 0, overflow: 'visible' }}>
      {INVOICE_STATUS_LABEL[status]}
    </Badge>
  );
}
