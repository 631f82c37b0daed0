import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { rows } from '../../db/rows';

/** Any constant: the advisory locks of organizations' daily limits, one per organization. */
const DAILY_LIMIT_LOCKS = 7_141_031;

/**
 * The slot of `consumption_days` a teacher's consumption counts in (decision 016): one of 16, from the last
 * hex digit of their id, so that a school's teachers do not all queue on one row of the day.
 */
export function dailyLimitSlot(userId: string): number {
  return Number.parseInt(userId.slice(-1), 16) || 0;
}

/**
 * Holds the daily limit of each organization until the transaction ends (advisory locks, in id order, taken
 * after the credit accounts): two consumptions of an organization with a limit cannot both pass it. An
 * organization without a limit takes none.
 */
export async function lockDailyLimits(tx: Tx, organizationIds: readonly string[]): Promise<void> {
  if (organizationIds.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${DAILY_LIMIT_LOCKS}, hashtext(value))
    from json_array_elements_text(${jsonParam([...organizationIds].sort())}) order by value`);
}

/** What each organization consumed today (UTC), from its slots: a statement after the locks sees it all. */
export async function consumedToday(
  tx: Tx,
  organizationIds: readonly string[],
): Promise<Map<string, number>> {
  if (organizationIds.length === 0) return new Map();
  const found = await rows<{ organization_id: string; credits: string }>(
    tx,
    sql`select organization_id, sum(credits)::text as credits from consumption_days
        where day = (now() at time zone 'utc')::date
          and organization_id in (select value::uuid from json_array_elements_text(${jsonParam(organizationIds)}))
        group by organization_id`,
  );
  return new Map(found.map((r) => [r.organization_id, Number(r.credits)]));
}
