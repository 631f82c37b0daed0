import type { CreditLogPage } from '@allot/domain/credits';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadExport } from '../../../lib/download-export';
import { type DateRange, queryKeys } from '../../../lib/query-keys';

/** Moves shown per page; "Load more" asks for the next as many. */
export const CREDIT_LOG_PAGE_SIZE = 20;

export const ALL_DATES: DateRange = { from: '', to: '' };

const path = (organizationId: string) => `/organization/${encodeURIComponent(organizationId)}/credit-log`;
const rangeQuery = (range: DateRange) => ({ from: range.from || undefined, to: range.to || undefined });

/**
 * GET /api/organization/{id}/credit-log: newest first, one page after the cursor (view_audit_logs), of the
 * days `from`–`to` (both included; CONTRACT §10) when given.
 */
export function getCreditLog(
  organizationId: string,
  pageToken: string | undefined,
  signal?: AbortSignal,
  range: DateRange = ALL_DATES,
) {
  return api.get<CreditLogPage>(path(organizationId), {
    query: { limit: CREDIT_LOG_PAGE_SIZE, pageToken, ...rangeQuery(range) },
    signal,
  });
}

export const creditLogQueryOptions = (organizationId: string, range: DateRange = ALL_DATES) =>
  infiniteQueryOptions({
    queryKey: queryKeys.creditLog.range(organizationId, range),
    queryFn: ({ pageParam, signal }) => getCreditLog(organizationId, pageParam, signal, range),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) =>
      last.pagination.hasNext ? (last.pagination.nextPageToken ?? undefined) : undefined,
  });

export function useCreditLog(organizationId: string, enabled = true, range: DateRange = ALL_DATES) {
  return useInfiniteQuery({ ...creditLogQueryOptions(organizationId, range), enabled });
}

/** GET /api/organization/{id}/credit-log/export?from=&to=: the same moves as CSV, every page. */
export function exportCreditLog(organizationId: string, range: DateRange) {
  return downloadExport(`${path(organizationId)}/export`, rangeQuery(range), 'credit-log.csv');
}
