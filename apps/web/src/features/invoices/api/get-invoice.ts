import type { Invoice } from '@allot/domain/invoices';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/invoice/{id}: what the printable page shows (manage_org_license on its organization). */
export function getInvoice(id: string, signal?: AbortSignal): Promise<Invoice> {
  return api.get<Invoice>(`/invoice/${encodeURIComponent(id)}`, { signal });
}

export const invoiceQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.invoices.detail(id), queryFn: ({ signal }) => getInvoice(id, signal) });

export function useInvoice(id: string) {
  return useQuery(invoiceQueryOptions(id));
}
