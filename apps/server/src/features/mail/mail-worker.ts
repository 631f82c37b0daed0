import type { Db } from '../../db/client';
import { type MailTransport, type ProcessOutboxOptions, processOutbox } from './outbox';

export interface MailWorkerOptions extends Pick<ProcessOutboxOptions, 'retryDelay' | 'leaseMs'> {
  /** How often the outbox is asked for due mail. */
  pollMs?: number;
}

export interface MailWorker {
  /** Stops polling and waits for the send in progress (bounded by the SMTP timeouts); the rest stays queued. */
  stop(): Promise<void>;
}

interface WorkerLog {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * The outbox loop of one server process. Every process runs one; they share the queue through the
 * database, so a mail queued by a process that stops is sent by the next one that runs.
 */
export function startMailWorker(
  db: Db,
  transport: MailTransport,
  log: WorkerLog,
  { pollMs = 1000, ...options }: MailWorkerOptions = {},
): MailWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | null = null;
  const stopping = new AbortController();

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  };

  function run() {
    round = processOutbox(db, transport, {
      ...options,
      signal: stopping.signal,
      onError: (mail, error) =>
        log.warn(
          { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, err: error },
          'mail not sent, will retry',
        ),
    })
      .then(() => undefined)
      .catch((error: unknown) => {
        if (!stopped) log.error({ err: error }, 'mail outbox round failed');
      })
      .finally(() => {
        round = null;
        schedule(pollMs);
      });
  }

  schedule(0);
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      clearTimeout(timer);
      await round;
      transport.close();
    },
  };
}
