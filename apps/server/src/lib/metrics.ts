import cluster, { type Worker } from 'node:cluster';
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

/** A server process's scrape, to the supervisor, and the supervisor's answer. */
const ASK = 'allot:metrics';
const ANSWER = 'allot:metrics-text';
/** The supervisor's request for a server process's own figures, and that process's answer. */
const COLLECT = 'allot:metrics-collect';
const PART = 'allot:metrics-part';

/**
 * How long the supervisor waits for a serving process's figures before it answers the scrape without them.
 * A process answers within milliseconds unless it is stopping or stuck; one that is still starting is not
 * asked at all.
 */
const COLLECT_WAIT_MS = 2_000;
/** How long a server process waits for the supervisor before it answers its own figures alone. */
const SUPERVISOR_WAIT_MS = 5_000;

/** WEB_CONCURRENCY: how many server processes a scrape should find (`answerClusterMetrics`). */
let expectedProcesses = 1;

/**
 * `allot_metrics_processes_answered` and `allot_metrics_processes_expected`, in the text format: how many
 * server processes' figures the answer holds, and how many there should be (issue 51). Fewer answered than
 * expected: a process was starting, stopping, or did not answer in time, and its figures are missing.
 */
async function processCounts(answered: number, expected: number): Promise<string> {
  const counts = new client.Registry();
  new client.Gauge({
    name: 'allot_metrics_processes_answered',
    help: 'Server processes whose figures this answer holds (those that answered the scrape in time)',
    registers: [counts],
  }).set(answered);
  new client.Gauge({
    name: 'allot_metrics_processes_expected',
    help: 'Server processes there should be (WEB_CONCURRENCY)',
    registers: [counts],
  }).set(expected);
  return counts.metrics();
}

/** This process's figures alone. */
const ownMetrics = async (expected: number) =>
  `${await registry.metrics()}${await processCounts(1, expected)}`;

/**
 * The metrics text: this process's, or in a server process of several, those of every process that answered
 * the supervisor in time. Never fails for want of another process: without the supervisor's answer (it
 * does not answer, or its channel is closed), this process's own figures.
 */
export async function metricsText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return ownMetrics(1);
  const id = randomUUID();
  const fromSupervisor = await new Promise<string | null>((resolve) => {
    const timer = setTimeout(() => settle(null), SUPERVISOR_WAIT_MS);
    function settle(text: string | null) {
      clearTimeout(timer);
      process.off('message', listen);
      resolve(text);
    }
    function listen(message: { type?: string; id?: string; text?: string }) {
      if (message?.type === ANSWER && message.id === id) settle(message.text ?? null);
    }
    process.on('message', listen);
    process.send?.({ type: ASK, id }, undefined, undefined, (error) => {
      if (error) settle(null);
    });
  });
  return fromSupervisor ?? ownMetrics(expectedProcesses);
}

type Figures = Awaited<ReturnType<typeof registry.getMetricsAsJSON>>;

/**
 * In the supervisor of several server processes: answers a process's scrape with the figures of every
 * process that serves, summed (prom-client's `AggregatorRegistry.aggregate`, each metric by its
 * aggregator). Only processes that listen are asked (one still starting has nothing to say yet); the answer
 * goes out when all have answered, when the others have died, or after `COLLECT_WAIT_MS`, with the count of
 * those that answered (issue 51: a scrape while a process started waited 5 s and answered `500`).
 */
export function serveClusterMetrics(expected: number): void {
  const serving = new Set<Worker>();
  /** Collections waiting for answers: a process's answer (null: it failed, or it is gone). */
  const collections = new Map<string, (worker: Worker, figures: Figures | null) => void>();
  cluster.on('listening', (worker) => serving.add(worker));
  const gone = (worker: Worker) => {
    serving.delete(worker);
    for (const answer of [...collections.values()]) answer(worker, null);
  };
  cluster.on('disconnect', gone);
  cluster.on('exit', gone);

  const collect = () =>
    new Promise<string>((resolve) => {
      const id = randomUUID();
      const pending = new Set([...serving].filter((worker) => worker.isConnected()));
      const parts: Figures[] = [];
      const timer = setTimeout(finish, COLLECT_WAIT_MS);
      function finish() {
        clearTimeout(timer);
        if (!collections.delete(id)) return;
        const summed = parts.length > 0 ? client.AggregatorRegistry.aggregate(parts).metrics() : '';
        Promise.all([summed, processCounts(parts.length, expected)]).then(
          ([text, counts]) => resolve(`${text}${counts}`),
          () => resolve(''),
        );
      }
      collections.set(id, (worker, figures) => {
        if (!pending.delete(worker)) return;
        if (figures) parts.push(figures);
        if (pending.size === 0) finish();
      });
      for (const worker of [...pending]) {
        worker.send({ type: COLLECT, id }, (error) => {
          if (error) collections.get(id)?.(worker, null);
        });
      }
      if (pending.size === 0) finish();
    });

  cluster.on('message', (worker, message: { type?: string; id?: string; figures?: Figures | null }) => {
    if (message?.type === PART && message.id) collections.get(message.id)?.(worker, message.figures ?? null);
    if (message?.type !== ASK) return;
    void collect().then((text) =>
      // An empty text (the sum failed): the process answers its own figures.
      worker.send({ type: ANSWER, id: message.id, text: text || undefined }, () => undefined),
    );
  });
}

/**
 * In a server process: how many there should be (`expected`, for `allot_metrics_processes_expected`) and, of
 * several, answers the supervisor's requests for this process's figures (null when a figure cannot be read:
 * the supervisor then leaves this process out).
 */
export function answerClusterMetrics(expected: number): void {
  expectedProcesses = expected;
  if (!cluster.isWorker) return;
  const reply = (id: string, figures: Figures | null) =>
    process.send?.({ type: PART, id, figures }, undefined, undefined, () => undefined);
  process.on('message', (message: { type?: string; id?: string }) => {
    if (message?.type !== COLLECT || !message.id) return;
    const id = message.id;
    registry.getMetricsAsJSON().then(
      (figures) => reply(id, figures),
      () => reply(id, null),
    );
  });
}
