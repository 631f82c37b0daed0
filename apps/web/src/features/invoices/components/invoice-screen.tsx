import { CREDIT_POOL_LABEL } from '@allot/domain/credits';
import { FULFILMENT_LABEL, formatMoney, type Invoice } from '@allot/domain/invoices';
import {
  Anchor,
  Button,
  Card,
  Divider,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { Brand } from '../../../components/brand';
import { LoadError } from '../../../components/load-error';
import { isApiError } from '../../../lib/api-error';
import { formatDateLong } from '../../../lib/format';
import { useCurrentOrganization } from '../../organizations/api/use-current-organization';
import { useInvoice } from '../api/get-invoice';
import { invoiceLicenceLabel } from '../forms/invoice-texts';
import { billingPathOf } from '../invoice-path';
import { InvoiceStatusBadge } from './invoice-status-badge';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function statusLine(invoice: Invoice): string | null {
  if (invoice.status === 'fulfilled' && invoice.fulfilledAt) {
    const method = invoice.fulfilmentMethod
      ? ` (${FULFILMENT_LABEL[invoice.fulfilmentMethod].toLowerCase()})`
      : '';
    return `Fulfilled${method} on ${formatDateLong(invoice.fulfilledAt)}`;
  }
  if (invoice.status === 'void' && invoice.voidedAt) return `Void since ${formatDateLong(invoice.voidedAt)}`;
  return null;
}

/**
 * Whom to pay and how, as the installation configures it (INVOICE_PAYEE, INVOICE_PAYMENT_INSTRUCTIONS; issue 33).
 * Without them the page names no payee and gives no instructions: it asks only for the number to be quoted.
 */
function HowToPay({ invoice }: { invoice: Invoice }) {
  const to = invoice.payee ? ` ${invoice.payee}` : '';
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        Please pay{to} by {formatDateLong(invoice.dueDate)}, quoting {invoice.number}. What the invoice buys
        is applied once it is paid.
      </Text>
      {invoice.paymentInstructions && (
        <Stack gap={2} role="group" aria-labelledby="how-to-pay">
          <Text size="sm" fw={600} id="how-to-pay">
            How to pay
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {invoice.paymentInstructions}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * An invoice as a printable page (`/:organization/invoices/:invoiceId`): 'Print' opens the browser's dialog,
 * and the print stylesheet (app/global.css) leaves only the invoice, so "Save as PDF" gives one clean page.
 */
export function InvoiceScreen() {
  const organization = useCurrentOrganization();
  const { invoiceId = '' } = useParams();
  const { data: invoice, isPending, isError, error, refetch, isRefetching } = useInvoice(invoiceId);
  useDocumentTitle(`${invoice ? invoice.number : 'Invoice'} · ${organization.name} · Allot`);
  // Opened from the billing queue (a system admin), the way back is the queue, its filters kept.
  const billing = billingPathOf(useLocation().state);
  const back = billing ?? `/${encodeURIComponent(organization.id)}/licenses`;
  // An invoice of another organization is not shown under this one's address; one of a deleted organization
  // is (it has no address of its own, and the server answered it only to those who read it from here).
  const elsewhere =
    invoice !== undefined && invoice.organizationId !== organization.id && !invoice.organizationDeleted;

  return (
    <Stack gap="md" maw={820} w="100%" className="invoice-page">
      <Group justify="space-between" data-print="hide">
        <Anchor component={Link} to={back} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden="true" />
            {billing ? 'Back to billing' : 'Back to licenses'}
          </Group>
        </Anchor>
        {invoice && !elsewhere && (
          <Button leftSection={<IconPrinter size={16} aria-hidden="true" />} onClick={() => window.print()}>
            Print
          </Button>
        )}
      </Group>

      {isPending ? (
        <Card aria-busy="true" aria-label="Loading the invoice">
          <Stack gap="md">
            <Skeleton height={28} width="40%" />
            <Skeleton height={16} width="60%" />
            <Skeleton height={120} />
          </Stack>
        </Card>
      ) : isError || elsewhere ? (
        <LoadError
          title="The invoice could not be loaded"
          error={
            elsewhere || (isApiError(error) && error.status === 404)
              ? new Error(`${organization.name} has no such invoice.`)
              : (error ?? new Error('Not found.'))
          }
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      ) : (
        <Card component="article" aria-labelledby="invoice-heading" padding="xl" className="invoice-sheet">
          <Stack gap="lg">
            <Group justify="space-between" align="flex-start">
              <Brand />
              <Stack gap={4} align="flex-end">
                <Title order={1} fz="h2" id="invoice-heading">
                  Invoice {invoice.number}
                </Title>
                <InvoiceStatusBadge status={invoice.status} size="md" />
              </Stack>
            </Group>

            <SimpleGrid component="dl" cols={2} spacing="lg" verticalSpacing="md" m={0}>
              <Field label="Organization">
                {invoice.organizationName}
                {invoice.organizationDeleted && ' (deleted)'}
              </Field>
              <Field label="Customer email">{invoice.customerEmail}</Field>
              {invoice.payee && <Field label="Payee">{invoice.payee}</Field>}
              {invoice.purchaseOrder && <Field label="Purchase order">{invoice.purchaseOrder}</Field>}
              {invoice.creditPool && (
                <Field label="Credits go to">{CREDIT_POOL_LABEL[invoice.creditPool]}</Field>
              )}
              <Field label="Created">
                <time dateTime={invoice.createdAt}>{formatDateLong(invoice.createdAt)}</time>
              </Field>
              <Field label="Due">
                <time dateTime={invoice.dueDate}>{formatDateLong(invoice.dueDate)}</time>
              </Field>
            </SimpleGrid>

            <Table aria-label="What the invoice buys" verticalSpacing="sm" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Description</Table.Th>
                  <Table.Th w={140}>Licence</Table.Th>
                  <Table.Th w={150} ta="right">
                    Amount
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>{invoice.description}</Table.Td>
                  <Table.Td>{invoiceLicenceLabel(invoice)}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatMoney(invoice.amount, invoice.currency)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>

            <Group justify="flex-end">
              <Stack gap={0} align="flex-end">
                <Text size="sm" c="dimmed">
                  Total ({invoice.currency})
                </Text>
                <Text fz={26} fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatMoney(invoice.amount, invoice.currency)}
                </Text>
              </Stack>
            </Group>

            <Divider />
            <Stack gap={4}>
              <Text size="sm">
                Status:{' '}
                <strong>{invoice.status === 'open' ? 'Open, awaiting payment' : statusLine(invoice)}</strong>
              </Text>
              {invoice.status === 'open' && <HowToPay invoice={invoice} />}
            </Stack>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
