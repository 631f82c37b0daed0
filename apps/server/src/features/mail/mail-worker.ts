import type { Db } from '../../db/client';
import { type RepeatingJob, startRepeatingJob } from '../../lib/repeating-job';
import { type MailTransport, type ProcessOutboxOptions, processOutbox } from './outbox';

export interface MailWorkerOptions extends Pick<ProcessOutboxOptions, 'retryDelay' | 'leaseMs'> {
  /** How often the outbox is asked for due mail. */
  pollMs?: number;
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
): RepeatingJob {
  const job = startRepeatingJob('mail outbox round', log, { intervalMs: pollMs, firstRunMs: 0 }, (signal) =>
    processOutbox(db, transport, {
      ...options,
      signal,
      onError: (mail, error) =>
        log.warn(
          { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, err: error },
          'mail not sent, will retry',
        ),
    }),
  );
  return {
    /** Stops polling and waits for the send in progress (bounded by the SMTP timeouts); the rest stays queued. */
    async stop() {
      await job.stop();
      transport.close();
    },
  };
}
