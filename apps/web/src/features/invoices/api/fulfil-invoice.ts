import type { FulfilmentMethod, Invoice } from '@allot/domain/invoices';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { invalidate } from '../../../lib/query-client';
import { fulfilmentViewsOf, queryKeys } from '../../../lib/query-keys';

export interface FulfilInvoiceInput {
  invoice: Pick<Invoice, 'id' | 'organizationId' | 'kind'>;
  method: FulfilmentMethod;
}

/** POST /api/invoice/{id}/fulfil (system admins): applies the purchase once; a final invoice is a 409. */
export function fulfilInvoice({ invoice, method }: FulfilInvoiceInput): Promise<Invoice> {
  return api.post<Invoice>(`/invoice/${encodeURIComponent(invoice.id)}/fulfil`, { method });
}

export function useFulfilInvoice() {
  return useMutation({
    mutationFn: fulfilInvoice,
    // What it bought shows at once: the licences (or pools) and the invoice, fulfilled.
    onSuccess: (answer) => invalidate(fulfilmentViewsOf(answer)),
    // A 409: someone fulfilled or voided it meanwhile; the list shows it as it is now.
    onError: (error, { invoice }) =>
      isApiError(error) && error.status === 409
        ? invalidate([
            queryKeys.invoices.detail(invoice.id),
            queryKeys.invoices.listOf(invoice.organizationId),
          ])
        : undefined,
  });
}
