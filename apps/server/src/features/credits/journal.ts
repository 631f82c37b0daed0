import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { applyOrganizationCreditChanges, type PoolChange } from './organization-credit-totals';

export const CREDIT_ACTIONS = [
  'pool_transfer',
  'assign_organizations',
  'reclaim_organizations',
  'transfer_organizations',
  'assign_users',
  'reclaim_users',
  'transfer_users',
  'system_allocation',
  'purchase',
  'consumption',
  'organization_deleted',
] as const;
export type CreditAction = (typeof CREDIT_ACTIONS)[number];

export interface JournalLine {
  accountId: string;
  amount: number;
}

export class InsufficientCreditsError extends Error {
  constructor(readonly accountId: string) {
    super(`credit account ${accountId} would go below zero`);
  }
}

/**
 * Posts one balanced transaction: a header, its lines (summing to zero) and the balance changes,
 * in the caller's database transaction. Accounts are locked in id order so concurrent posts cannot
 * deadlock; a balance that would go below zero aborts the whole post. The credit figures stored on
 * the organizations (their pools, the pools below them) move with the balances.
 */
export async function postCreditTransaction(
  tx: Tx,
  input: { action: CreditAction; actorId: string | null; description?: string; lines: JournalLine[] },
): Promise<string> {
  const lines = input.lines.filter((l) => l.amount !== 0);
  if (lines.length === 0) throw new Error('credit transaction has no lines');
  if (lines.some((l) => !Number.isSafeInteger(l.amount))) throw new Error('credit amounts must be integers');
  if (lines.reduce((sum, l) => sum + l.amount, 0) !== 0)
    throw new Error('credit transaction does not balance');

  const deltas = new Map<string, number>();
  for (const line of lines) deltas.set(line.accountId, (deltas.get(line.accountId) ?? 0) + line.amount);
  const accountIds = [...deltas.keys()].sort();
  const locked = await rows<{
    id: string;
    kind: string;
    organization_id: string | null;
    balance: number | string;
  }>(
    tx,
    sql`select id, kind, organization_id, balance from credit_accounts
        where id in (${sql.join(
          accountIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        order by id for update`,
  );
  if (locked.length !== accountIds.length) throw new Error('unknown credit account');
  for (const account of locked) {
    const next = Number(account.balance) + (deltas.get(account.id) ?? 0);
    if (next < 0 && account.kind !== 'system') throw new InsufficientCreditsError(account.id);
  }

  const [header] = await rows<{ id: string }>(
    tx,
    sql`insert into credit_transactions (action, actor_id, description)
        values (${input.action}, ${input.actorId}, ${input.description ?? ''}) returning id`,
  );
  if (!header) throw new Error('credit transaction insert returned no row');
  await tx.execute(sql`update credit_accounts a set balance = a.balance + v.delta
    from (values ${sql.join(
      [...deltas].map(([id, delta]) => sql`(${id}::uuid, ${delta}::bigint)`),
      sql`, `,
    )}) v(id, delta) where a.id = v.id`);
  const poolChanges = new Map<string, PoolChange>();
  for (const account of locked) {
    if (account.organization_id === null) continue;
    const change = poolChanges.get(account.organization_id) ?? { shared: 0, protected: 0 };
    const delta = deltas.get(account.id) ?? 0;
    if (account.kind === 'shared') change.shared += delta;
    else change.protected += delta;
    poolChanges.set(account.organization_id, change);
  }
  await applyOrganizationCreditChanges(tx, poolChanges);
  await tx.execute(sql`
    insert into credit_entries (transaction_id, account_id, amount)
    values ${sql.join(
      lines.map((l) => sql`(${header.id}, ${l.accountId}, ${l.amount})`),
      sql`, `,
    )}`);
  return header.id;
}

export async function systemAccountId(tx: Tx): Promise<string> {
  await tx.execute(sql`insert into credit_accounts (kind) values ('system') on conflict do nothing`);
  const [row] = await rows<{ id: string }>(tx, sql`select id from credit_accounts where kind = 'system'`);
  if (!row) throw new Error('system credit account missing');
  return row.id;
}

export async function organizationPoolAccountId(
  tx: Tx,
  organizationId: string,
  pool: 'shared' | 'protected',
): Promise<string> {
  const [row] = await rows<{ id: string }>(
    tx,
    sql`select id from credit_accounts where organization_id = ${organizationId} and kind = ${pool}`,
  );
  if (!row) throw new Error(`organization ${organizationId} has no ${pool} pool`);
  return row.id;
}

export async function userAccountId(tx: Tx, userId: string): Promise<string> {
  await tx.execute(
    sql`insert into credit_accounts (kind, user_id) values ('user', ${userId}) on conflict do nothing`,
  );
  const [row] = await rows<{ id: string }>(tx, sql`select id from credit_accounts where user_id = ${userId}`);
  if (!row) throw new Error(`user ${userId} has no credit account`);
  return row.id;
}
