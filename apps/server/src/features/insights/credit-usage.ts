import {
  type CreditUsage,
  type CreditUsageQuery,
  FORECAST_WINDOW_DAYS,
  runsOutOn,
} from '@allot/domain/insights';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { ReplicaReads } from '../../db/read-replica';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { requireOrganizationAccess } from '../organization-access';
import { usageDaySeries } from './credit-usage-days';
import { creditUsageQueued, rollUpCreditUsage } from './usage-rollup';

/** What a read rolls up first, at most: a chart right after a move shows it, and a reader never waits long. */
const READ_ROLLUP_BATCH = 1_000;

/** The credits in the pools of organization `o` (an alias of the caller's query) and of every one below it. */
export function subtreePoolsSql(o: ReturnType<typeof sql>) {
  return sql`(${o}.shared_credits + ${o}.protected_credits + subtree_pool_credits_of(${o}.id))`;
}

/**
 * The members' balances held in the organization's subtree (CONTRACT §5: per membership), as the roll-up last
 * counted them (`subtree_member_credits`, decision 014, "Members' credits"): one row read.
 */
export function subtreeMemberCreditsSql(organizationId: ReturnType<typeof sql> | string) {
  return sql`coalesce((select held_m.credits from subtree_member_credits held_m
    where held_m.organization_id = ${organizationId}), 0)`;
}

/**
 * Every credit held in the organization's subtree: its own pools, the pools below it (`subtree_pool_credits_of`:
 * kept by the roll-up, exact when read) and its members' balances. Row reads and the short roll-up queue only,
 * so that the sub-organization list can use it per row.
 */
export function creditsAvailableSql(organizationId: ReturnType<typeof sql> | string) {
  // Aliases of their own: the caller may pass a column of its own query's `o`.
  return sql`(select ${subtreePoolsSql(sql`held_o`)} + ${subtreeMemberCreditsSql(organizationId)}
    from organizations held_o where held_o.id = ${organizationId})`;
}

/** The consumption of the forecast's window: the `FORECAST_WINDOW_DAYS` complete UTC days before today. */
export function windowConsumedSql(organizationId: ReturnType<typeof sql> | string) {
  return sql`(select coalesce(sum(window_u.consumed), 0) from credit_usage_days window_u
    where window_u.organization_id = ${organizationId}
      and window_u.day >= (now() at time zone 'UTC')::date - ${FORECAST_WINDOW_DAYS}::int
      and window_u.day < (now() at time zone 'UTC')::date)`;
}

/**
 * GET /api/organization/{id}/credit-usage (CONTRACT §10, decision 014): the days of `credit_usage_days` and the
 * forecast, never a scan of the journal. When journal transactions wait for the roll-up it first rolls up one
 * bounded batch on `db`, unless another reader is doing so right now (it then reads what is committed); the
 * figures are then read where `reads` says, asked after that (decision 018).
 */
export async function readCreditUsage(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: CreditUsageQuery,
  reads: ReplicaReads = async () => db,
): Promise<CreditUsage> {
  await requireOrganizationAccess(db, user, organizationId, ['view_audit_logs']);
  await rollUpBeforeRead(db);
  return creditUsageOf(await reads(), organizationId, query.days);
}

/**
 * What a reader of `credit_usage_days` does first: when journal transactions wait, it rolls up one bounded
 * batch, unless another reader is doing so right now (it then reads what is committed). With nothing queued it
 * costs one index probe.
 */
export async function rollUpBeforeRead(db: Db): Promise<void> {
  if (await creditUsageQueued(db)) {
    await rollUpCreditUsage(db, { batchSize: READ_ROLLUP_BATCH, maxBatches: 1, skipIfBusy: true });
  }
}

export async function creditUsageOf(db: Tx, organizationId: string, count: number): Promise<CreditUsage> {
  const [head] = await rows<{ today: string; available: string; window: string }>(
    db,
    sql`select to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as today,
          ${creditsAvailableSql(organizationId)}::text as available,
          ${windowConsumedSql(organizationId)}::text as window`,
  );
  const today = head?.today as string;
  const found = await rows<{ date: string; received: string; handed_down: string; consumed: string }>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as date, received::text, handed_down::text, consumed::text
        from credit_usage_days
        where organization_id = ${organizationId}
          and day > (now() at time zone 'UTC')::date - ${count}::int
          and day <= (now() at time zone 'UTC')::date
        order by day`,
  );
  const series = usageDaySeries(
    today,
    count,
    found.map((r) => ({
      date: r.date,
      received: Number(r.received),
      handedDown: Number(r.handed_down),
      consumed: Number(r.consumed),
    })),
  );
  const creditsAvailable = Number(head?.available ?? 0);
  const meanDailyConsumption = Number(head?.window ?? 0) / FORECAST_WINDOW_DAYS;
  return {
    organizationId,
    ...series,
    forecast: {
      runsOutOn: runsOutOn(today, creditsAvailable, meanDailyConsumption),
      windowDays: FORECAST_WINDOW_DAYS,
      meanDailyConsumption,
      creditsAvailable,
    },
  };
}
