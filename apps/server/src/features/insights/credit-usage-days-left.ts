import { FORECAST_HORIZON_DAYS, FORECAST_WINDOW_DAYS } from '@allot/domain/insights';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { creditsAvailableSql, windowConsumedSql } from './credit-usage';

/**
 * The days an organization's subtree lasts at its burn rate (decision 014, "Days left"): floor(creditsAvailable
 * / meanDailyConsumption) as the forecast counts them, null when nothing was consumed in the window or when
 * that is more than a year. In whole numbers, `floor(available × window / consumed)`: no rounding of the mean.
 * `id` is an SQL expression naming the organization (a column of the caller's query); `available` its
 * `creditsAvailableSql`, or the same from figures the caller's query already holds. `offset 0` keeps the
 * figures a subquery of their own: pulled up, the window's sum was worked out once per use in the expression.
 */
export function daysLeftSql(id: SQL, available: SQL = creditsAvailableSql(id)): SQL {
  return sql`(select case when w.consumed > 0
        and (w.available * ${FORECAST_WINDOW_DAYS}::int) / w.consumed <= ${FORECAST_HORIZON_DAYS}::int
      then ((w.available * ${FORECAST_WINDOW_DAYS}::int) / w.consumed)::int end
    from (select ${available}::bigint as available, ${windowConsumedSql(id)}::bigint as consumed
      offset 0) w)`;
}

/** `daysLeftSql` of each organization of `ids`, in one query. */
export async function daysLeftOf(db: Tx, ids: readonly string[]): Promise<Map<string, number | null>> {
  if (ids.length === 0) return new Map();
  const found = await rows<{ id: string; days_left: number | null }>(
    db,
    sql`select o.id, ${daysLeftSql(sql`o.id`)} as days_left from organizations o where o.id in ${uuidsIn(ids)}`,
  );
  return new Map(found.map((r) => [r.id, r.days_left === null ? null : Number(r.days_left)]));
}
