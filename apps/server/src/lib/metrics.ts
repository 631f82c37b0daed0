import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import client from 'prom-client';
import { jobRecords } from './repeating-job';

/**
 * The process's metrics in Prometheus's text format (issue 35, docs/OPERATIONS.md "Metrics"). Each process
 * counts its own; with several server processes (`WEB_CONCURRENCY`) a scrape of any of them answers the sum
 * of all, collected by the supervisor (`serveClusterMetrics`).
 */
export const registry = client.register;

client.collectDefaultMetrics({ register: registry });

export const httpRequests = new client.Counter({
  name: 'allot_http_requests_total',
  help: 'Requests answered, by method, route (its pattern) and status',
  labelNames: ['method', 'route', 'status'] as const,
});

export const httpDuration = new client.Histogram({
  name: 'allot_http_request_duration_seconds',
  help: 'Time from a request’s arrival to its answer, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const rateLimitRefusals = new client.Counter({
  name: 'allot_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a rate limit, by route',
  labelNames: ['route'] as const,
});

export const ledgerPostings = new client.Counter({
  name: 'allot_ledger_postings_total',
  help: 'Credit journal transactions committed, by action',
  labelNames: ['action'] as const,
});

export const consumptions = new client.Counter({
  name: 'allot_consumptions_total',
  help: 'Consumptions of the classroom product (single and in batches), by outcome: consumed, or the refusal’s error code',
  labelNames: ['outcome'] as const,
});

/** Only with a read replica (`DATABASE_READ_URL`, db/read-replica.ts). */
export const readsRouted = new client.Counter({
  name: 'allot_db_reads_total',
  help: 'Requests’ reads that may use the read replica, by where they ran (replica, primary) and why: caught_up (the replica had replayed the primary’s position), behind, down',
  labelNames: ['target', 'reason'] as const,
});

export const replicaFallbacks = new client.Counter({
  name: 'allot_db_replica_fallbacks_total',
  help: 'Statements that failed on the read replica (it went away, or a recovery conflict cancelled them) and ran again on the primary',
});

new client.Gauge({
  name: 'allot_server_processes',
  help: 'Server processes whose figures this answer sums (WEB_CONCURRENCY)',
  aggregator: 'sum',
  collect() {
    this.set(1);
  },
});

/** The jobs of `lib/repeating-job.ts`, read when scraped. */
new client.Gauge({
  name: 'allot_job_last_run_timestamp_seconds',
  help: 'When each background job last started (Unix time)',
  labelNames: ['job'] as const,
  aggregator: 'max',
  collect() {
    for (const [job, r] of jobRecords) if (r.lastStartedAt) this.set({ job }, r.lastStartedAt / 1000);
  },
});
new client.Gauge({
  name: 'allot_job_last_duration_seconds',
  help: 'How long each background job’s last run took (the longest of the processes)',
  labelNames: ['job'] as const,
  aggregator: 'max',
  collect() {
    for (const [job, r] of jobRecords)
      if (r.lastDurationMs !== null) this.set({ job }, r.lastDurationMs / 1000);
  },
});
new client.Gauge({
  name: 'allot_job_runs',
  help: 'Runs of each background job since the process started',
  labelNames: ['job'] as const,
  collect() {
    for (const [job, r] of jobRecords) this.set({ job }, r.runs);
  },
});
new client.Gauge({
  name: 'allot_job_failures',
  help: 'Failed runs of each background job since the process started',
  labelNames: ['job'] as const,
  collect() {
    for (const [job, r] of jobRecords) this.set({ job }, r.failures);
  },
});

/** A gauge read when scraped. `aggregator`: how the processes' values combine (the database's own: `max`). */
export function gaugeOf(
  name: string,
  help: string,
  aggregator: 'sum' | 'max',
  read: () => Promise<number | null> | number | null,
) {
  return new client.Gauge({
    name,
    help,
    aggregator,
    async collect() {
      const value = await read();
      if (value !== null) this.set(value);
    },
  });
}

const ASK = 'allot:metrics';
const ANSWER = 'allot:metrics-text';

/** The metrics text: this process's, or in a server process of several, all of theirs (from the supervisor). */
export async function metricsText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return registry.metrics();
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', listen);
      reject(new Error('the supervisor did not answer with the metrics'));
    }, 5_000);
    function listen(message: { type?: string; id?: string; text?: string; error?: string }) {
      if (message?.type !== ANSWER || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', listen);
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(message.error ?? 'no metrics'));
    }
    process.on('message', listen);
    process.send?.({ type: ASK, id });
  });
}

/**
 * In the supervisor of several server processes: answers a process's request for the metrics with every
 * process's, summed (prom-client's AggregatorRegistry, which asks each process over the cluster channel).
 */
export function serveClusterMetrics(): void {
  const aggregator = new client.AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message }),
    );
  });
}

/** In a server process of several: answers the supervisor's requests for this process's metrics. */
export function answerClusterMetrics(): void {
  if (cluster.isWorker) new client.AggregatorRegistry();
}
