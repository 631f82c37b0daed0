import type { Db } from '../../db/client';
import { type RepeatingJob, startRepeatingJob } from '../../lib/repeating-job';
import type { MailSettings } from '../mail';
import { sendDueExpiryReminders } from './expiry-reminders';

export interface ExpiryReminderJobOptions {
  /** How often the due reminders are looked for (default: every hour). */
  intervalMs?: number;
  /** The first run after the start (default: a minute, so a start is not slowed by it). */
  firstRunMs?: number;
}

interface JobLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * This process's licence expiry reminder loop. Every process runs one: the reminders are recorded in the
 * database with the mails they queue, so however many run, each reminder goes once, and a restart misses
 * nothing (the next run sends what became due meanwhile). A failed run is logged and the next one tries again.
 */
export function startExpiryReminderJob(
  db: Db,
  settings: MailSettings,
  log: JobLog,
  { intervalMs = 60 * 60_000, firstRunMs = 60_000 }: ExpiryReminderJobOptions = {},
): RepeatingJob {
  return startRepeatingJob('licence expiry reminders', log, { intervalMs, firstRunMs }, async () => {
    const result = await sendDueExpiryReminders(db, settings);
    if (result.reminders > 0) log.info(result, 'licence expiry reminders queued');
  });
}
