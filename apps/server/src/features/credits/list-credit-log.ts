import {
  CREDIT_ACTION_LABEL,
  CREDIT_LOG_CSV_HEADER,
  type CreditAction,
  type CreditLogEntry,
  type CreditLogExportQuery,
  type CreditLogPage,
  type CreditLogQuery,
} from '@allot/domain/credits';
import { csvLine } from '@allot/domain/csv';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { EXPORT_BATCH } from '../../http/csv-download';
import { cursorPage, decodePageToken } from '../../http/cursor';
import { namedInLogOfSql, personInLog, requireOrganizationAccess } from '../organization-access';

type CreditLogRow = {
  id: string;
  seq: string;
  date: Date | string;
  action: CreditAction;
  description: string;
  pools: string | null;
  received: string | null;
  net: string;
  consumed: string | null;
  actor_id: string | null;
  actor_named: boolean | null;
  actor_name: string | null;
  actor_email: string | null;
};

/**
 * Up to `limit` credit log rows of the organization, newest first, in the date range (UTC days, both
 * included), strictly older than `beforeSeq` and not newer than `atMostSeq` when given.
 */
function readCreditLogRows(
  db: Tx,
  organizationId: string,
  filter: CreditLogExportQuery,
  page: { limit: number; beforeSeq?: string | null; atMostSeq?: string | null },
): Promise<CreditLogRow[]> {
  const where = [
    page.beforeSeq ? sql`t.seq < ${page.beforeSeq}::bigint` : null,
    page.atMostSeq ? sql`t.seq <= ${page.atMostSeq}::bigint` : null,
    filter.from ? sql`t.created_at >= (${filter.from}::date)::timestamp at time zone 'UTC'` : null,
    filter.to ? sql`t.created_at < (${filter.to}::date + 1)::timestamp at time zone 'UTC'` : null,
  ].filter((w) => w !== null);
  return rows<CreditLogRow>(
    db,
    sql`with accounts as (
          select id, kind in ('shared', 'protected') as pool, kind = 'consumed' as consumed from credit_accounts
          where organization_id = ${organizationId} and kind in ('shared', 'protected', 'consumed')
          union all
          select id, false, false from credit_accounts where organization_id = ${organizationId} and kind = 'user'),
        touched as (
          select e.transaction_id,
            sum(e.amount) filter (where accounts.pool) as pools,
            sum(e.amount) filter (where e.amount > 0 and not accounts.consumed) as received,
            sum(e.amount) filter (where not accounts.consumed) as net,
            sum(e.amount) filter (where accounts.consumed) as consumed
          from credit_entries e join accounts on accounts.id = e.account_id
          group by e.transaction_id)
        select t.id, t.seq::text as seq, t.created_at as date, t.action, t.description,
          x.pools::text as pools, x.received::text as received, x.net::text as net, x.consumed::text as consumed,
          t.actor_id, ${namedInLogOfSql(sql`t.actor_id`, organizationId)} as actor_named,
          u.name as actor_name, u.email as actor_email
        from touched x
        join credit_transactions t on t.id = x.transaction_id
        left join users u on u.id = t.actor_id
        ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
        order by t.seq desc
        limit ${page.limit}`,
  );
}

function toCreditLogEntry(r: CreditLogRow): CreditLogEntry {
  const pools = Number(r.pools ?? 0);
  const received = Number(r.received ?? 0);
  return {
    id: r.id,
    date: new Date(r.date).toISOString(),
    action: r.action,
    credits:
      r.action === 'consumption'
        ? -Number(r.consumed ?? 0)
        : pools !== 0
          ? pools
          : received > 0
            ? received
            : Number(r.net),
    description: r.description,
    by: personInLog(r),
  };
}

/**
 * GET /api/organization/{id}/credit-log (CONTRACT §5; needs view_audit_logs): the journal transactions that
 * touched the organization's accounts (its pools, its members' balances in it, consumption in it), newest
 * first, by cursor, in `from`–`to` when given (CONTRACT §10). `credits` is the signed change of the
 * organization's pools; for a move inside it (between its pools, between its members) the amount moved; for
 * a consumption, what it used up there (the member's balance and the shared pool together).
 */
export async function listCreditLog(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: CreditLogQuery,
): Promise<CreditLogPage> {
  await requireOrganizationAccess(db, user, organizationId, ['view_audit_logs']);
  const beforeSeq = decodePageToken(query.pageToken);
  const found = await readCreditLogRows(db, organizationId, query, { limit: query.limit + 1, beforeSeq });
  const { page, pagination } = cursorPage(found, query.limit);
  return { data: page.map(toCreditLogEntry), pagination };
}

/**
 * GET /api/organization/{id}/credit-log/export (CONTRACT §10): access first (a 403/404 is a JSON answer),
 * then the rows the list shows for the same range, every page, read by batches; as the log was when the
 * export began.
 */
export async function exportCreditLog(
  db: Db,
  user: AuthUser,
  organizationId: string,
  filter: CreditLogExportQuery,
): Promise<AsyncIterable<string>> {
  await requireOrganizationAccess(db, user, organizationId, ['view_audit_logs']);
  const [top] = await rows<{ seq: string | null }>(
    db,
    sql`select max(seq)::text as seq from credit_transactions`,
  );
  const atMostSeq = top?.seq ?? '0';
  return (async function* () {
    yield `${csvLine(CREDIT_LOG_CSV_HEADER)}\r\n`;
    let beforeSeq: string | null = null;
    for (;;) {
      const batch = await readCreditLogRows(db, organizationId, filter, {
        limit: EXPORT_BATCH,
        beforeSeq,
        atMostSeq,
      });
      if (batch.length > 0) {
        yield batch
          .map(toCreditLogEntry)
          .map(
            (e) =>
              `${csvLine([e.date, CREDIT_ACTION_LABEL[e.action], e.credits, e.description, e.by?.name ?? '', e.by?.email ?? '', e.id])}\r\n`,
          )
          .join('');
      }
      const last = batch.at(-1);
      if (!last || batch.length < EXPORT_BATCH) return;
      beforeSeq = last.seq;
    }
  })();
}
