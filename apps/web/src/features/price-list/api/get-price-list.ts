import type { PriceList } from '@allot/domain/invoices';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/invoice/products: per licence type the price of a seat for a month and the free tier; credit packs. */
export function getPriceList(signal?: AbortSignal): Promise<PriceList> {
  return api.get<PriceList>('/invoice/products', { signal });
}

export const priceListQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.priceList.all(), queryFn: ({ signal }) => getPriceList(signal) });

export function usePriceList() {
  return useQuery(priceListQueryOptions());
}
