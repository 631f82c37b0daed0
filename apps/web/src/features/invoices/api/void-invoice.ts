import type { Invoice } from '@allot/domain/invoices';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

type VoidedInvoice = Pick<Invoice, 'id' | 'organizationId'>;

/** POST /api/invoice/{id}/void (system admins): only before it is fulfilled (409 otherwise). */
export function voidInvoice(invoice: VoidedInvoice): Promise<Invoice> {
  return api.post<Invoice>(`/invoice/${encodeURIComponent(invoice.id)}/void`);
}

/** A void invoice changes nothing else: its page and its organization's list. */
const invoiceViews = (invoice: VoidedInvoice) => [
  queryKeys.invoices.detail(invoice.id),
  queryKeys.invoices.listOf(invoice.organizationId),
];

export function useVoidInvoice() {
  return useMutation({
    mutationFn: voidInvoice,
    onSuccess: (answer) => invalidate(invoiceViews(answer)),
    onError: (error, invoice) =>
      isApiError(error) && error.status === 409 ? invalidate(invoiceViews(invoice)) : undefined,
  });
}
