import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { type RepeatingJob, startRepeatingJob } from '../../lib/repeating-job';
import type { MailSettings } from '../mail';
import { deliverCreditAlerts } from './alert-delivery';
import { rollUpCreditUsage } from './usage-rollup';

export interface InsightsJobOptions {
  /** How often the credit usage roll-up and the low-balance alert worker run (default: every 5 seconds). */
  intervalMs?: number;
}

/**
 * This process's roll-up of credit usage and its low-balance alert worker (decision 014). Every process runs
 * one: both claim their rows with `FOR UPDATE SKIP LOCKED`, so however many run, each row is handled once.
 */
export function startInsightsJobs(
  db: Db,
  settings: MailSettings,
  log: FastifyBaseLogger,
  { intervalMs = 5_000 }: InsightsJobOptions = {},
): RepeatingJob {
  return startRepeatingJob('credit usage roll-up and alerts', log, { intervalMs }, async (signal) => {
    // Each on its own: a failed roll-up must not hold back the alerts, nor the other way round.
    const each = (label: string, work: () => Promise<unknown>) =>
      work().catch((error: unknown) => {
        if (!signal.aborted) log.error({ err: error }, `${label} failed`);
      });
    await each('credit usage roll-up', () => rollUpCreditUsage(db));
    await each('low-balance alert delivery', () => deliverCreditAlerts(db, settings));
  });
}
