import { errorBodySchema } from '@allot/domain/errors';
import { APP_MSG } from '@allot/domain/messages';
import { ApiError, NETWORK_ERROR_STATUS } from './api-error';
import { getSession } from './session';

/** A query string's parameters; a list is the parameter repeated (the audit log's `action`). */
export type ExportQuery = Record<string, string | readonly string[] | undefined>;

export function exportSearch(query: ExportQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    if (typeof value === 'string') params.set(key, value);
    else for (const one of value) params.append(key, one);
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** The file name of a `Content-Disposition` header (`filename*=UTF-8''…` first, then `filename="…"`). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/**
 * Downloads an export (CONTRACT §10: CSV with a `Content-Disposition` file name). The API authenticates with
 * the session's bearer token, not a cookie, so a plain link cannot fetch it: the file is fetched with the
 * token and saved through a blob URL under the server's file name. Throws an ApiError as every call does.
 */
export async function downloadExport(
  path: string,
  query: ExportQuery,
  fallbackName: string,
): Promise<string> {
  const token = getSession().secToken;
  let response: Response;
  try {
    response = await fetch(`/api${path}${exportSearch(query)}`, {
      headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
  } catch {
    throw new ApiError(NETWORK_ERROR_STATUS, 'network_error', APP_MSG.internal);
  }
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const parsed = errorBodySchema.safeParse(body);
    throw parsed.success
      ? new ApiError(response.status, parsed.data.error, parsed.data.message, parsed.data.details)
      : new ApiError(response.status, 'internal', APP_MSG.internal);
  }
  const blob = await response.blob();
  const name = fileNameOf(response.headers.get('Content-Disposition'), fallbackName);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
  return name;
}
