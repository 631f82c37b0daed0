import type { Db } from '../../db/client';

/**
 * Rolls the queued journal transactions up into `credit_usage_days` and `member_consumption` (decision 014,
 * "Roll-up"). Answers how many transactions it rolled up.
 */
export async function rollUpCreditUsage(_db: Db): Promise<number> {
  return 0;
}
