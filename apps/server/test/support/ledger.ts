import { poolsOf, type ReclaimStrategy } from '@allot/domain/credits';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../src/db/client';
import { rows } from '../../src/db/rows';

/**
 * The ledger's invariants (issue 10), each as a query that lists what breaks it. Empty everywhere: the
 * ledger is right.
 */
export async function ledgerViolations(db: Tx): Promise<string[]> {
  const checks: [string, ReturnType<typeof sql>][] = [
    [
      // A consumed account keeps no balance (decision 016): what it received is the sum of its entries.
      'the accounts do not sum to zero (the consumed accounts counted by their entries)',
      sql`select sum(held) as v from (
            select balance as held from credit_accounts
            union all
            select e.amount from credit_entries e join credit_accounts a on a.id = e.account_id and a.kind = 'consumed'
          ) s having sum(held) <> 0`,
    ],
    [
      'a consumed account holds a balance, or an entry takes from one',
      sql`select a.id as v from credit_accounts a where a.kind = 'consumed' and (a.balance <> 0
            or exists (select 1 from credit_entries e where e.account_id = a.id and e.amount < 0))`,
    ],
    [
      'a balance is below zero',
      sql`select id as v from credit_accounts where balance < 0 and kind <> 'system'`,
    ],
    [
      'a balance differs from the sum of its entries',
      sql`select a.id as v from credit_accounts a
          left join (select account_id, sum(amount) as total from credit_entries group by account_id) e on e.account_id = a.id
          where a.kind <> 'consumed' and a.balance <> coalesce(e.total, 0)`,
    ],
    [
      'a transaction does not sum to zero or has no lines',
      sql`select t.id as v from credit_transactions t left join credit_entries e on e.transaction_id = t.id
          group by t.id having count(e.id) = 0 or sum(e.amount) <> 0`,
    ],
    [
      'an organization’s stored credit figures differ from a recount',
      sql`select o.name as v from organizations o where o.deleted_at is null and (
            o.shared_credits <> coalesce((select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'shared'), 0)
            or o.protected_credits <> coalesce((select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'protected'), 0)
            or subtree_pool_credits_of(o.id) <> coalesce((select sum(a.balance) from organization_closure c
                 join credit_accounts a on a.organization_id = c.descendant_id and a.kind in ('shared', 'protected')
                 where c.ancestor_id = o.id and c.depth > 0), 0))`,
    ],
    [
      'a member’s balance holds credits without a membership or an invitation (CONTRACT §5)',
      sql`select a.id as v from credit_accounts a where a.kind = 'user' and a.balance <> 0
            and not exists (select 1 from memberships m where m.user_id = a.user_id and m.organization_id = a.organization_id)
            and not exists (select 1 from membership_invitations i
                            where i.user_id = a.user_id and i.organization_id = a.organization_id)`,
    ],
    [
      'a closed balance of before credits per membership holds credits',
      sql`select id as v from credit_accounts where kind = 'person' and balance <> 0`,
    ],
  ];
  const found: string[] = [];
  for (const [rule, query] of checks) {
    const broken = await rows<{ v: unknown }>(db, query);
    if (broken.length > 0) found.push(`${rule}: ${broken.map((b) => String(b.v)).join(', ')}`);
  }
  return found;
}

/** An account's key in the model, from a `credit_accounts` row aliased `a`. */
const accountKey = sql`case when a.kind = 'user' then 'user:' || a.user_id || '@' || a.organization_id
  when a.kind = 'person' then 'person:' || a.user_id when a.kind = 'system' then 'system'
  else a.kind || ':' || a.organization_id end`;

/** A member's balance in one organization, as the model keys it (CONTRACT §5: credits per membership). */
export const memberKey = (userId: string, organizationId: string) => `user:${userId}@${organizationId}`;

/**
 * Every account's balance (a consumed account's: what it received), keyed as the model keys them: `shared:<org>`, `protected:<org>`, `consumed:<org>`,
 * `user:<id>@<org>`, `system` (and `person:<id>`, the closed balances of before migration 0020).
 */
export async function balancesByKey(db: Tx): Promise<Map<string, number>> {
  const found = await rows<{ key: string; balance: string }>(
    db,
    // A consumed account keeps no balance (decision 016): what it received, from its entries.
    sql`select ${accountKey} as key, case when a.kind = 'consumed'
          then (select coalesce(sum(e.amount), 0) from credit_entries e where e.account_id = a.id)
          else a.balance end::text as balance
        from credit_accounts a`,
  );
  return new Map(found.map((r) => [r.key, Number(r.balance)]));
}

/** The journal transactions after `afterSeq`, in order, with their lines keyed like the model's accounts. */
export async function journalSince(db: Tx, afterSeq: number) {
  const found = await rows<{
    id: string;
    seq: string;
    action: string;
    description: string;
    lines: { key: string; amount: number }[];
  }>(
    db,
    sql`select t.id, t.seq::text as seq, t.action, t.description, json_agg(json_build_object(
          'key', ${accountKey},
          'amount', e.amount)) as lines
        from credit_transactions t join credit_entries e on e.transaction_id = t.id
        join credit_accounts a on a.id = e.account_id
        where t.seq > ${afterSeq} group by t.id, t.seq, t.action, t.description order by t.seq`,
  );
  return found.map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    action: r.action,
    description: r.description,
    lines: r.lines,
  }));
}

export type Line = { key: string; amount: number };

/** A request of the workload, as the model reads it. */
export type MoveRequest =
  | {
      url: '/api/credit/transfer/pools';
      body: { amount: number; organizationId: string; fromPool: string; toPool: string };
    }
  | {
      url: '/api/credit/assign/organizations';
      body: {
        amount: number;
        sourceOrganizationId: string;
        fromOrganizationPoolType: string;
        targetOrganizationIds: string[];
        toOrganizationPoolType: string;
      };
    }
  | {
      url: '/api/credit/reclaim/organizations';
      body: {
        amount: number;
        sourceOrganizationIds: string[];
        reclaimFromStrategy: ReclaimStrategy;
        targetOrganizationId: string;
        toOrganizationPoolType: string;
      };
    }
  | {
      url: '/api/credit/transfer/organizations';
      body: {
        amount: number;
        sourceOrganizationId: string;
        fromOrganizationPoolType: string;
        targetOrganizationId: string;
        toOrganizationPoolType: string;
      };
    }
  | {
      url: '/api/credit/assign/users';
      body: { amount: number; userIds: string[]; organizationId: string; fromOrganizationPoolType: string };
    }
  | {
      url: '/api/credit/reclaim/users';
      body: { amount: number; userIds: string[]; organizationId: string; toOrganizationPoolType: string };
    }
  | {
      /** `organizationId`: the organization whose members they are, for the model (the body may leave it out). */
      url: '/api/credit/transfer/users';
      body: { amount: number; sourceUserId: string; targetUserId: string; organizationId?: string };
      organizationId: string;
    }
  | {
      url: '/api/credit/allocate/system';
      body: { amount: number; organizationId: string; toPool: string; description: string };
    }
  | {
      /** The classroom product's consumption (issue 15): `userId` and `organizationId` say whose, for the model. */
      url: '/api/integration/consume';
      body: ConsumptionItem;
      userId: string;
      organizationId: string;
    }
  | {
      /**
       * A batch of consumptions by one key (issue 31): each item applied or refused on its own, in order.
       * `places` say whose each item is, for the model, which takes the items one by one (`oneByOne`).
       */
      url: '/api/integration/consume/batch';
      body: { items: ConsumptionItem[] };
      places: { userId: string; organizationId: string }[];
    };

/** One consumption of the classroom product, as the single call and a batch's item send it. */
export interface ConsumptionItem {
  email: string;
  credits: number;
  reference: string;
  organizationId?: string;
}

const transferOrganization = (request: MoveRequest) =>
  (request as Extract<MoveRequest, { url: '/api/credit/transfer/users' }>).organizationId;

/**
 * A model of the ledger, the oracle of the randomized workloads: given its balances and a request, the
 * lines the move must write, or null when it must be refused (some account would go below zero).
 */
export class LedgerModel {
  constructor(readonly balances: Map<string, number>) {}

  private get(key: string) {
    return this.balances.get(key) ?? 0;
  }

  linesOf(request: MoveRequest): Line[] | null {
    if (request.url === '/api/integration/consume') return this.consumptionLines(request);
    if (request.url === '/api/integration/consume/batch') {
      throw new Error('the model takes a batch item by item (credit-workload.ts, oneByOne)');
    }
    const { url, body } = request;
    const a = body.amount;
    let lines: Line[];
    switch (url) {
      case '/api/credit/transfer/pools':
        lines = [
          { key: `${body.fromPool}:${body.organizationId}`, amount: -a },
          { key: `${body.toPool}:${body.organizationId}`, amount: a },
        ];
        break;
      case '/api/credit/assign/organizations':
        lines = [
          {
            key: `${body.fromOrganizationPoolType}:${body.sourceOrganizationId}`,
            amount: -a * body.targetOrganizationIds.length,
          },
          ...body.targetOrganizationIds.map((id) => ({
            key: `${body.toOrganizationPoolType}:${id}`,
            amount: a,
          })),
        ];
        break;
      case '/api/credit/reclaim/organizations': {
        const pools = poolsOf(body.reclaimFromStrategy);
        lines = [];
        for (const source of body.sourceOrganizationIds) {
          let remaining = a;
          for (const pool of pools) {
            const take = Math.min(remaining, this.get(`${pool}:${source}`));
            if (take > 0) lines.push({ key: `${pool}:${source}`, amount: -take });
            remaining -= take;
          }
          if (remaining > 0) return null;
        }
        lines.push({
          key: `${body.toOrganizationPoolType}:${body.targetOrganizationId}`,
          amount: a * body.sourceOrganizationIds.length,
        });
        break;
      }
      case '/api/credit/transfer/organizations':
        lines = [
          { key: `${body.fromOrganizationPoolType}:${body.sourceOrganizationId}`, amount: -a },
          { key: `${body.toOrganizationPoolType}:${body.targetOrganizationId}`, amount: a },
        ];
        break;
      case '/api/credit/assign/users':
        lines = [
          {
            key: `${body.fromOrganizationPoolType}:${body.organizationId}`,
            amount: -a * body.userIds.length,
          },
          ...body.userIds.map((id) => ({ key: memberKey(id, body.organizationId), amount: a })),
        ];
        break;
      case '/api/credit/reclaim/users':
        lines = [
          ...body.userIds.map((id) => ({ key: memberKey(id, body.organizationId), amount: -a })),
          { key: `${body.toOrganizationPoolType}:${body.organizationId}`, amount: a * body.userIds.length },
        ];
        break;
      case '/api/credit/transfer/users':
        lines = [
          { key: memberKey(body.sourceUserId, transferOrganization(request)), amount: -a },
          { key: memberKey(body.targetUserId, transferOrganization(request)), amount: a },
        ];
        break;
      case '/api/credit/allocate/system':
        lines = [
          { key: 'system', amount: -a },
          { key: `${body.toPool}:${body.organizationId}`, amount: a },
        ];
        break;
    }
    const after = new Map<string, number>();
    for (const line of lines) after.set(line.key, (after.get(line.key) ?? this.get(line.key)) + line.amount);
    for (const [key, balance] of after) if (key !== 'system' && balance < 0) return null;
    return lines;
  }

  /** Own balance first, then the organization's shared pool, into its consumed account; null when both are short. */
  private consumptionLines(
    request: Extract<MoveRequest, { url: '/api/integration/consume' }>,
  ): Line[] | null {
    const credits = request.body.credits;
    const ownKey = memberKey(request.userId, request.organizationId);
    const own = this.get(ownKey);
    const shared = this.get(`shared:${request.organizationId}`);
    if (own + shared < credits) return null;
    const fromOwn = Math.min(own, credits);
    return [
      ...(fromOwn > 0 ? [{ key: ownKey, amount: -fromOwn }] : []),
      ...(credits > fromOwn ? [{ key: `shared:${request.organizationId}`, amount: fromOwn - credits }] : []),
      { key: `consumed:${request.organizationId}`, amount: credits },
    ];
  }

  apply(lines: Line[]) {
    for (const line of lines) this.balances.set(line.key, this.get(line.key) + line.amount);
  }
}

/** Lines as a sorted list of "key amount", to compare what the journal holds with what the model expects. */
export function normalized(lines: Line[]): string[] {
  const sums = new Map<string, number>();
  for (const l of lines) sums.set(l.key, (sums.get(l.key) ?? 0) + Number(l.amount));
  return [...sums]
    .filter(([, v]) => v !== 0)
    .map(([k, v]) => `${k} ${v}`)
    .sort();
}

/** A small deterministic random generator (mulberry32), so that a failing run can be replayed by its seed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    int: (below: number) => next() % below,
    pick: <T>(items: readonly T[]): T => items[next() % items.length] as T,
    chance: (p: number) => next() / 2 ** 32 < p,
  };
}

/**
 * Nothing lost, nothing doubled (issue 31): what entered the network from the system account, minted
 * (`system_allocation`) and purchased (`purchase`), less what went back to it (`organization_deleted` of a
 * root) and what was consumed (the entries into the `consumed` accounts, which keep no balance), equals the
 * sum of the balances held, pools and members' balances. The figures come from the journal by action, the sum
 * from the balances as stored. Answers what is wrong: nothing when it holds.
 */
export async function conservationViolations(db: Tx): Promise<string[]> {
  const [figures] = await rows<{
    minted: string;
    purchased: string;
    returned: string;
    consumed: string;
    held: string;
    other: string;
  }>(
    db,
    sql`select
          (select coalesce(-sum(e.amount), 0) from credit_entries e
             join credit_accounts a on a.id = e.account_id and a.kind = 'system'
             join credit_transactions t on t.id = e.transaction_id and t.action = 'system_allocation')::text as minted,
          (select coalesce(-sum(e.amount), 0) from credit_entries e
             join credit_accounts a on a.id = e.account_id and a.kind = 'system'
             join credit_transactions t on t.id = e.transaction_id and t.action = 'purchase')::text as purchased,
          (select coalesce(sum(e.amount), 0) from credit_entries e
             join credit_accounts a on a.id = e.account_id and a.kind = 'system'
             join credit_transactions t on t.id = e.transaction_id and t.action = 'organization_deleted')::text as returned,
          (select coalesce(sum(e.amount), 0) from credit_entries e
             join credit_accounts a on a.id = e.account_id and a.kind = 'consumed'
             join credit_transactions t on t.id = e.transaction_id and t.action = 'consumption')::text as consumed,
          (select coalesce(sum(balance), 0) from credit_accounts where kind not in ('system', 'consumed'))::text as held,
          (select count(*) from credit_entries e
             join credit_accounts a on a.id = e.account_id
             join credit_transactions t on t.id = e.transaction_id
             where (a.kind = 'system' and t.action not in ('system_allocation', 'purchase', 'organization_deleted'))
               or (a.kind = 'consumed' and t.action <> 'consumption')
               or (t.action = 'consumption' and a.kind = 'system'))::text as other`,
  );
  const [minted, purchased, returned, consumed, held, other] = [
    figures?.minted,
    figures?.purchased,
    figures?.returned,
    figures?.consumed,
    figures?.held,
    figures?.other,
  ].map(Number) as [number, number, number, number, number, number];
  const found: string[] = [];
  if (minted + purchased - returned - consumed !== held) {
    found.push(
      `minted ${minted} + purchased ${purchased} − returned ${returned} − consumed ${consumed} = ${minted + purchased - returned - consumed}, the balances hold ${held}`,
    );
  }
  if (other > 0)
    found.push(`${other} journal lines move credits of the system or consumed accounts otherwise`);
  return found;
}
