import { Agent, request } from 'node:http';

export interface LoadResult {
  count: number;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
  errors: number;
}

/**
 * Runs `operation` `total` times (or as many as fit in `maxSeconds`), `concurrency` at once, and measures
 * each; an operation that answers false counts as an error.
 */
export async function measure(
  operation: () => Promise<boolean>,
  { total, concurrency, maxSeconds = 20 }: { total: number; concurrency: number; maxSeconds?: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total && performance.now() - started < maxSeconds * 1000) {
      next++;
      const t0 = performance.now();
      const ok = await operation();
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    count: latencies.length,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? 0,
    perSecond: latencies.length / elapsed,
    errors,
  };
}

/**
 * `measure` over HTTP: GETs of `url` (or of what it makes for each request), or POSTs of the JSON `body()`
 * makes; anything but a 200 is an error, or what `check` says of the status and the answer's text. node:http
 * with keep-alive: lighter than fetch, so the client steals less of the 2 cores.
 */
export async function load(
  url: string | (() => string),
  headers: Record<string, string> | (() => Record<string, string>),
  options: {
    total: number;
    concurrency: number;
    maxSeconds?: number;
    body?: () => unknown;
    check?: (status: number, body: string) => boolean;
  },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const { check } = options;
  try {
    return await measure(async () => {
      const answer = await send(
        typeof url === 'function' ? url() : url,
        typeof headers === 'function' ? headers() : headers,
        agent,
        options.body ? JSON.stringify(options.body()) : undefined,
        check !== undefined,
      );
      return check ? check(answer.status, answer.body) : answer.status === 200;
    }, options);
  } finally {
    agent.destroy();
  }
}

/** One request; the answer's text is kept only when `keepBody`. */
export function send(
  url: string,
  headers: Record<string, string>,
  agent: Agent,
  body?: string,
  keepBody = false,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const options = body
      ? { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, agent }
      : { headers, agent };
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        if (keepBody) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
