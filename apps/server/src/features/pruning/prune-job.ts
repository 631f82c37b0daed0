import type { Db } from '../../db/client';
import { type RepeatingJob, startRepeatingJob } from '../../lib/repeating-job';
import { pruneTables } from './prune-tables';

export interface PruneJobOptions {
  /** How often (default: every hour). */
  intervalMs?: number;
  /** The first run after the start (default: five minutes, so a start is not slowed by it). */
  firstRunMs?: number;
}

interface JobLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * This process's pruning loop (`pruneTables`). Every process runs one; they never wait for each other, and
 * what one misses the next run deletes.
 */
export function startPruneJob(
  db: Db,
  log: JobLog,
  { intervalMs = 60 * 60_000, firstRunMs = 5 * 60_000 }: PruneJobOptions = {},
): RepeatingJob {
  return startRepeatingJob('pruning', log, { intervalMs, firstRunMs }, async (signal) => {
    const counts = await pruneTables(db, signal);
    if (Object.values(counts).some((n) => n > 0)) log.info({ pruned: counts }, 'old rows pruned');
  });
}
