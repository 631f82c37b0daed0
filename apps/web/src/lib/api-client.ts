import { errorBodySchema } from '@allot/domain/errors';
import { APP_MSG } from '@allot/domain/messages';
import { ApiError, NETWORK_ERROR_STATUS } from './api-error';
import { clearSession, getSession } from './session';
import { rememberSessionEnd } from './session-end';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** false for the public auth calls: no bearer token, and a 401 is an answer, not an expired session. */
  auth?: boolean;
  signal?: AbortSignal;
  /** Extra request headers, e.g. the `Idempotency-Key` of a credit move (CONTRACT §5). */
  headers?: Record<string, string>;
}

let onUnauthorized: () => void = () => {
  window.location.assign('/login');
};

/** The router registers how to go to the sign-in screen after a 401. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/** A call answered 401 ended the session: where the person was, for the sign-in to take them back. */
function sessionEndedAt(method: Method, session: { userId?: string | null; userEmail?: string | null }) {
  rememberSessionEnd({
    from: `${window.location.pathname}${window.location.search}`,
    userId: session.userId ?? null,
    email: session.userEmail ?? null,
    ended: true,
    unsavedChange: method !== 'GET',
  });
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = `/api${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The one API client: JSON in and out, bearer token from the session, ApiError on failure. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, auth = true, signal } = options;
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = getSession().secToken;
  if (auth && token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError(NETWORK_ERROR_STATUS, 'network_error', APP_MSG.internal);
  }

  const data = await readBody(response);
  if (response.ok) return data as T;

  const parsed = errorBodySchema.safeParse(data);
  const error = parsed.success
    ? new ApiError(response.status, parsed.data.error, parsed.data.message, parsed.data.details)
    : new ApiError(response.status, 'internal', APP_MSG.internal);

  if (auth && response.status === 401) {
    sessionEndedAt(method, getSession());
    clearSession();
    onUnauthorized();
  }
  throw error;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
