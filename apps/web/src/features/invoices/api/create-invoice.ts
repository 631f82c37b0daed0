import type { CreateInvoiceRequest, Invoice } from '@allot/domain/invoices';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface CreateInvoiceInput {
  input: CreateInvoiceRequest;
  /** One per dialog's content (lib/use-idempotency-key.ts): a double click or a retry buys once (decision 010). */
  idempotencyKey: string;
}

/**
 * POST /api/invoice/create: the server computes the amount from the price list and mails the invoice.
 * 400/401/403/500 come back with the spec's texts in `message`.
 */
export function createInvoice({ input, idempotencyKey }: CreateInvoiceInput): Promise<Invoice> {
  return api.post<Invoice>('/invoice/create', input, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/** A new invoice changes nothing yet but its organization's invoice list. */
function afterCreate(invoice: Invoice): Promise<void> {
  return invalidate([queryKeys.invoices.listOf(invoice.organizationId)]);
}

export function useCreateInvoice() {
  return useMutation({ mutationFn: createInvoice, onSuccess: afterCreate });
}
