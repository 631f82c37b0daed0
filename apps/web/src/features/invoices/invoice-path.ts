/** The printable page of an invoice, under its organization's dashboard. */
export function invoicePath(organizationId: string, invoiceId: string): string {
  return `/${encodeURIComponent(organizationId)}/invoices/${encodeURIComponent(invoiceId)}`;
}

/** Location state of a link to an invoice from the billing queue: its page leads back there, filters kept. */
export interface FromBilling {
  billing: string;
}

export function fromBilling(search: string): FromBilling {
  return { billing: `/billing${search}` };
}

/** The billing queue's address an invoice was opened from, if it was (only a path of the queue is trusted). */
export function billingPathOf(state: unknown): string | null {
  const billing = (state as Partial<FromBilling> | null)?.billing;
  return typeof billing === 'string' && /^\/billing(\?|$)/.test(billing) ? billing : null;
}
