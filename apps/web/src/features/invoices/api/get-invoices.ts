import type { InvoicePage, InvoiceSortKey } from '@allot/domain/invoices';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface InvoiceListParams {
  page: number;
  limit: number;
  search: string;
  key?: InvoiceSortKey;
  order?: 'asc' | 'desc';
}

/** GET /api/organization/{id}/invoices: paginated, searched by number or email, sorted (manage_org_license). */
export function getInvoices(organizationId: string, params: InvoiceListParams, signal?: AbortSignal) {
  return api.get<InvoicePage>(`/organization/${encodeURIComponent(organizationId)}/invoices`, {
    query: { ...params, search: params.search || undefined },
    signal,
  });
}

export const invoicesQueryOptions = (organizationId: string, params: InvoiceListParams) =>
  queryOptions({
    queryKey: queryKeys.invoices.page(organizationId, params),
    queryFn: ({ signal }) => getInvoices(organizationId, params, signal),
    placeholderData: keepPreviousData,
  });

export function useInvoices(organizationId: string, params: InvoiceListParams) {
  return useQuery(invoicesQueryOptions(organizationId, params));
}
