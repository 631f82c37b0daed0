import type { CreditAction, CreditLogPage, CreditLogQuery } from '@allot/domain/credits';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { cursorPage, decodePageToken } from '../../lib/cursor';
import { requireOrganizationAccess } from '../organization-access/access';

/**
 * GET /api/organization/{id}/credit-log (CONTRACT §5; needs view_audit_logs): the journal transactions that
 * touched the organization's pools or its members' balances, newest first, by cursor. `credits` is the
 * signed change of the organization's pools; for a move inside it (between its pools, between its members)
 * the amount moved; for a consumption, what it used up (the member's balance and the shared pool together).
 */
export async function listCreditLog(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: CreditLogQuery,
): Promise<CreditLogPage> {
  await requireOrganizationAccess(db, user, organizationId, ['view_audit_logs']);
  const before = decodePageToken(query.pageToken);
  const found = await rows<{
    id: string;
    seq: string;
    date: Date | string;
    action: CreditAction;
    description: string;
    pools: string | null;
    received: string | null;
    net: string;
    actor_id: string | null;
    actor_name: string | null;
    actor_email: string | null;
  }>(
    db,
    sql`with accounts as (
          select id, true as pool from credit_accounts
          where organization_id = ${organizationId} and kind in ('shared', 'protected')
          union all
          select a.id, false from memberships m join credit_accounts a on a.user_id = m.user_id
          where m.organization_id = ${organizationId}),
        touched as (
          select e.transaction_id,
            sum(e.amount) filter (where accounts.pool) as pools,
            sum(e.amount) filter (where e.amount > 0) as received,
            sum(e.amount) as net
          from credit_entries e join accounts on accounts.id = e.account_id
          group by e.transaction_id)
        select t.id, t.seq::text as seq, t.created_at as date, t.action, t.description,
          x.pools::text as pools, x.received::text as received, x.net::text as net,
          u.id as actor_id, u.name as actor_name, u.email as actor_email
        from touched x
        join credit_transactions t on t.id = x.transaction_id
        left join users u on u.id = t.actor_id
        ${before ? sql`where t.seq < ${before}::bigint` : sql``}
        order by t.seq desc
        limit ${query.limit + 1}`,
  );
  const { page, pagination } = cursorPage(found, query.limit);
  return {
    data: page.map((r) => {
      const pools = Number(r.pools ?? 0);
      const received = Number(r.received ?? 0);
      return {
        id: r.id,
        date: new Date(r.date).toISOString(),
        action: r.action,
        credits:
          r.action === 'consumption'
            ? Number(r.net)
            : pools !== 0
              ? pools
              : received > 0
                ? received
                : Number(r.net),
        description: r.description,
        by: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '', email: r.actor_email ?? '' } : null,
      };
    }),
    pagination,
  };
}
