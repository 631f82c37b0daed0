import type { PriceList } from '@allot/domain/invoices';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** PUT /api/invoice/products (system admins): replaces the prices and packs; answers the list as saved. */
export function updatePriceList(input: PriceList): Promise<PriceList> {
  return apiRequest<PriceList>('/invoice/products', { method: 'PUT', body: input });
}

/** The answer is the list as stored: it replaces the cached one (invoices already created keep their amounts). */
function afterUpdate(saved: PriceList): void {
  queryClient.setQueryData(queryKeys.priceList.all(), saved);
}

export function useUpdatePriceList() {
  return useMutation({ mutationFn: updatePriceList, onSuccess: afterUpdate });
}
