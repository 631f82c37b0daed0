import type { InvoicePage, InvoiceStatus } from '@allot/domain/invoices';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { InvoiceListParams } from './get-invoices';

/** GET /api/invoices (CONTRACT §7): every organization's invoices, for system admins; `all` for every status. */
export function useBillingQueue(
  params: Required<InvoiceListParams> & { status: InvoiceStatus | 'all' },
  enabled: boolean,
) {
  return useQuery({
    enabled,
    queryKey: queryKeys.invoices.billingPage(params),
    queryFn: ({ signal }) =>
      api.get<InvoicePage>('/invoices', {
        query: {
          page: params.page,
          limit: params.limit,
          key: params.key,
          order: params.order,
          search: params.search || undefined,
          status: params.status === 'all' ? undefined : params.status,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
