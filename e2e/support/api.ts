/** Calls to the e2e server's API, for setting up and cleaning up what a browser test needs. */
export interface ApiAnswer<T> {
  status: number;
  body: T;
}

export async function callApi<T = Record<string, unknown>>(
  baseUrl: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: { body?: unknown; token?: string } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Signs in through the API and answers the bearer token. */
export async function apiToken(baseUrl: string, email: string, password: string): Promise<string> {
  const answer = await callApi<{ secToken?: string }>(baseUrl, 'POST', '/auth/login', {
    body: { email, password },
  });
  if (answer.status !== 200 || !answer.body.secToken) {
    throw new Error(`sign-in of ${email} answered ${answer.status}`);
  }
  return answer.body.secToken;
}
