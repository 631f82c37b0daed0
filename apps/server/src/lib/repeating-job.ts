/** A background loop of one server process: the mail outbox, the licence reminders, the roll-ups, pruning. */
export interface RepeatingJob {
  /** Stops the timer, asks a run in progress to stop (its `signal`) and waits for it. */
  stop(): Promise<void>;
}

/** What the metrics say about a job (features/metrics): its last run and how often it failed. */
export interface JobRecord {
  runs: number;
  failures: number;
  lastStartedAt: number | null;
  lastDurationMs: number | null;
}

/** Every job this process has started, by name. */
export const jobRecords = new Map<string, JobRecord>();

interface JobLog {
  error(object: object, message: string): void;
}

export interface RepeatingJobOptions {
  /** The pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** The first run after the start (default: `intervalMs`). */
  firstRunMs?: number;
}

/**
 * Runs `work` now and then, one run at a time, until stopped: after each run (failed or not) the next one
 * waits `intervalMs`. A failed run is logged as "{name} failed", unless the job was stopping. A waiting timer
 * never keeps the process alive on its own.
 */
export function startRepeatingJob(
  name: string,
  log: JobLog,
  { intervalMs, firstRunMs = intervalMs }: RepeatingJobOptions,
  work: (signal: AbortSignal) => Promise<unknown>,
): RepeatingJob {
  const record: JobRecord = jobRecords.get(name) ?? {
    runs: 0,
    failures: 0,
    lastStartedAt: null,
    lastDurationMs: null,
  };
  jobRecords.set(name, record);
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  const schedule = (delay: number) => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(run, delay);
    timer.unref();
  };

  function run() {
    const started = Date.now();
    record.lastStartedAt = started;
    running = Promise.resolve()
      .then(() => work(stopping.signal))
      .then(
        () => undefined,
        (error: unknown) => {
          record.failures++;
          if (!stopping.signal.aborted) log.error({ err: error }, `${name} failed`);
        },
      )
      .finally(() => {
        record.runs++;
        record.lastDurationMs = Date.now() - started;
        running = null;
        schedule(intervalMs);
      });
  }

  schedule(firstRunMs);
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
