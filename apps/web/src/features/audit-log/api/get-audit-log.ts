import type { AuditLogPage } from '@allot/domain/audit';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadExport, type ExportQuery, exportSearch } from '../../../lib/download-export';
import { type AuditLogFilters, queryKeys } from '../../../lib/query-keys';

/** Entries shown per page; "Load more" asks for the next as many. */
export const AUDIT_LOG_PAGE_SIZE = 25;

/** The filters as the server takes them; `action` repeated (CONTRACT §10). */
export function auditFilterQuery(filters: AuditLogFilters): ExportQuery {
  return {
    actorId: filters.actorId || undefined,
    action: filters.actions.length > 0 ? filters.actions : undefined,
    organizationId: filters.organizationId || undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
  };
}

const base = (organizationId: string) => `/organization/${encodeURIComponent(organizationId)}/audit-log`;

/** GET /api/organization/{id}/audit-log: newest first, one page after the cursor (view_audit_logs). */
export function getAuditLog(
  organizationId: string,
  filters: AuditLogFilters,
  pageToken: string | undefined,
  signal?: AbortSignal,
) {
  // The api client sets one value per parameter: the repeated `action` goes in the path's query string.
  const search = exportSearch({
    ...auditFilterQuery(filters),
    pageToken,
    limit: String(AUDIT_LOG_PAGE_SIZE),
  });
  return api.get<AuditLogPage>(`${base(organizationId)}${search}`, { signal });
}

export const auditLogQueryOptions = (organizationId: string, filters: AuditLogFilters) =>
  infiniteQueryOptions({
    queryKey: queryKeys.auditLog.filtered(organizationId, filters),
    queryFn: ({ pageParam, signal }) => getAuditLog(organizationId, filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) =>
      last.pagination.hasNext ? (last.pagination.nextPageToken ?? undefined) : undefined,
  });

export function useAuditLog(organizationId: string, filters: AuditLogFilters, enabled = true) {
  return useInfiniteQuery({ ...auditLogQueryOptions(organizationId, filters), enabled });
}

/** GET /api/organization/{id}/audit-log/export: every entry the same filters list, as CSV. */
export function exportAuditLog(organizationId: string, filters: AuditLogFilters) {
  return downloadExport(`${base(organizationId)}/export`, auditFilterQuery(filters), 'audit-log.csv');
}
