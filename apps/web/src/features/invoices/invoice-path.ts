/** The printable page of an invoice, under its organization's dashboard. */
export function invoicePath(organizationId: string, invoiceId: string): string {
  return `/${encodeURIComponent(organizationId)}/invoices/${encodeURIComponent(invoiceId)}`;
}
