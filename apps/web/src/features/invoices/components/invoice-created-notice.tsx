import { formatMoney, type Invoice } from '@allot/domain/invoices';
import { Anchor, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { MailWords } from '../../mail/hooks/use-mail-words';
import { invoicePath } from '../invoice-path';

/**
 * The notice after an invoice is created: its number, what it buys, where it was sent (queued where this
 * installation sends no mail; or not mailed: INVOICE_MAILS_PER_DAY to outside addresses, decision 010), and a link to its
 * printable page. Notifications render outside the router, so the link navigates through `open` (the
 * dialog's `navigate`); it stays a real link (new tab, copy address).
 */
export function showInvoiceCreated(invoice: Invoice, open: (path: string) => void, words: MailWords): void {
  const path = invoicePath(invoice.organizationId, invoice.id);
  const id = `invoice-created-${invoice.id}`;
  notifications.show({
    id,
    color: invoice.mailed ? 'green' : 'yellow',
    autoClose: 12_000,
    title: `Invoice ${invoice.number} created`,
    message: (
      <Stack gap={4}>
        <Text size="sm" inherit>
          {invoice.description}: {formatMoney(invoice.amount, invoice.currency)}.{' '}
          {invoice.mailed
            ? words.invoiceMailed(invoice.customerEmail)
            : `Not mailed: ${invoice.customerEmail} is outside the organization, and today’s invoice mails to outside addresses are used up. Send the invoice’s page yourself.`}
        </Text>
        <Anchor
          href={path}
          size="sm"
          fw={600}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            notifications.hide(id);
            open(path);
          }}
        >
          Open invoice {invoice.number}
        </Anchor>
      </Stack>
    ),
  });
}
