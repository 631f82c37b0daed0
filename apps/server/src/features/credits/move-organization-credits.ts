import {
  type AllocateSystemCreditsRequest,
  type AssignOrganizationsRequest,
  type CreditMoveResponse,
  poolsOf,
  type ReclaimOrganizationsRequest,
  reclaimableUnder,
  type TransferOrganizationsRequest,
  type TransferPoolsRequest,
} from '@allot/domain/credits';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { requireSystemAdmin } from '../organization-access';
import { systemAccountId } from './journal';
import { count, type Move, namesOf, postMove, refuse } from './move-answer';
import {
  type OrganizationParty,
  organizationActedOn,
  organizationsActedOn,
  organizationsBelow,
  poolAccount,
} from './parties';

const ONLY_SYSTEM_ADMINS = 'Only a system admin can allocate new credits.';
const notBelow = (name: string) => `Credits move only between ${name} and the organizations below it.`;

/** POST /api/credit/transfer/pools: between an organization's own two pools. */
export async function transferPools(
  tx: Tx,
  user: AuthUser,
  input: TransferPoolsRequest,
): Promise<CreditMoveResponse> {
  return postMove(tx, await planTransferPools(tx, user, input));
}

/** `transferPools`'s move, its parties read and checked: what a shared transaction posts (move-queue.ts). */
export async function planTransferPools(tx: Tx, user: AuthUser, input: TransferPoolsRequest): Promise<Move> {
  const org = await organizationActedOn(tx, user, input.organizationId, 'transfer_org_credits');
  return {
    action: 'pool_transfer',
    actorId: user.userId,
    description: `${count(input.amount)} from the ${input.fromPool} pool to the ${input.toPool} pool`,
    lines: [
      { accountId: poolAccount(org, input.fromPool), amount: -input.amount },
      { accountId: poolAccount(org, input.toPool), amount: input.amount },
    ],
    amount: input.amount,
    total: input.amount,
    organizations: [org],
    users: [],
    refusal: () => refuse.pool(input.fromPool),
  };
}

/** POST /api/credit/assign/organizations: `amount` from one pool of the source to each organization below it. */
export async function assignOrganizations(
  tx: Tx,
  user: AuthUser,
  input: AssignOrganizationsRequest,
): Promise<CreditMoveResponse> {
  return postMove(tx, await planAssignOrganizations(tx, user, input));
}

/** `assignOrganizations`'s move, its parties read and checked (move-queue.ts). */
export async function planAssignOrganizations(
  tx: Tx,
  user: AuthUser,
  input: AssignOrganizationsRequest,
): Promise<Move> {
  const source = await organizationActedOn(tx, user, input.sourceOrganizationId, 'transfer_org_credits');
  const targets = await organizationsBelow(
    tx,
    user,
    source,
    input.targetOrganizationIds,
    notBelow(source.name),
  );
  const total = input.amount * targets.length;
  const into =
    targets.length === 1
      ? `its ${input.toOrganizationPoolType} pool`
      : `their ${input.toOrganizationPoolType} pools`;
  return {
    action: 'assign_organizations',
    actorId: user.userId,
    description: `${count(input.amount)}${targets.length > 1 ? ' each' : ''} to ${namesOf(targets)} from the ${input.fromOrganizationPoolType} pool of ${source.name}, into ${into}`,
    lines: [
      { accountId: poolAccount(source, input.fromOrganizationPoolType), amount: -total },
      ...targets.map((t) => ({
        accountId: poolAccount(t, input.toOrganizationPoolType),
        amount: input.amount,
      })),
    ],
    amount: input.amount,
    total,
    organizations: [source, ...targets],
    users: [],
    refusal: () => refuse.pool(input.fromOrganizationPoolType),
  };
}

/**
 * POST /api/credit/reclaim/organizations: `amount` from each organization below the target, drained from the
 * pools its strategy names in order. Every source must have the amount in those pools: the first one short is
 * refused by name with what it has (the balances are read under the journal's locks, so they hold).
 */
export async function reclaimOrganizations(
  tx: Tx,
  user: AuthUser,
  input: ReclaimOrganizationsRequest,
): Promise<CreditMoveResponse> {
  const target = await organizationActedOn(tx, user, input.targetOrganizationId, 'transfer_org_credits');
  const sources = await organizationsBelow(
    tx,
    user,
    target,
    input.sourceOrganizationIds,
    notBelow(target.name),
  );
  const pools = poolsOf(input.reclaimFromStrategy);
  // Every account the posting will lock, the target's pool too, in one statement in id order (locks.ts):
  // holding the sources while the journal then locks the target waited, in a circle, for a move that held
  // the target and waited for a source (issue 31).
  const accounts = [
    ...sources.flatMap((s) => pools.map((pool) => poolAccount(s, pool))),
    poolAccount(target, input.toOrganizationPoolType),
  ];
  const locked = await rows<{ id: string; balance: string | number }>(
    tx,
    sql`select id, balance from credit_accounts where id in ${uuidsIn(accounts)} order by id for no key update`,
  );
  const balanceOf = new Map(locked.map((a) => [a.id, Number(a.balance)]));
  const lines = sources.flatMap((source) => {
    const available = reclaimableUnder(input.reclaimFromStrategy, {
      shared: balanceOf.get(poolAccount(source, 'shared')) ?? 0,
      protected: balanceOf.get(poolAccount(source, 'protected')) ?? 0,
    });
    if (available < input.amount) throw refuse.source(source.name, available);
    let remaining = input.amount;
    return pools.flatMap((pool) => {
      const take = Math.min(remaining, balanceOf.get(poolAccount(source, pool)) ?? 0);
      remaining -= take;
      return take > 0 ? [{ accountId: poolAccount(source, pool), amount: -take }] : [];
    });
  });
  const total = input.amount * sources.length;
  // What the lines took from, not what the strategy allowed: "protected first" that found the protected pools
  // empty took from the shared ones only, and the credit log says so (issue 33).
  const taken = pools.filter((pool) =>
    lines.some((line) => sources.some((source) => poolAccount(source, pool) === line.accountId)),
  );
  const from =
    taken.length === 1
      ? `their ${taken[0]} pools`
      : `their ${taken[0]} pools first, then their ${taken[1]} pools`;
  return postMove(tx, {
    action: 'reclaim_organizations',
    actorId: user.userId,
    description: `${count(input.amount)}${sources.length > 1 ? ' each' : ''} from ${namesOf(sources)} (${from}) into the ${input.toOrganizationPoolType} pool of ${target.name}`,
    lines: [...lines, { accountId: poolAccount(target, input.toOrganizationPoolType), amount: total }],
    amount: input.amount,
    total,
    organizations: [target, ...sources],
    users: [],
    refusal: (accountId, balance) =>
      refuse.source(
        sources.find((s) => s.shared === accountId || s.protected === accountId)?.name ?? '',
        balance,
      ),
  });
}

/** POST /api/credit/transfer/organizations: between two organizations the caller manages. */
export async function transferOrganizations(
  tx: Tx,
  user: AuthUser,
  input: TransferOrganizationsRequest,
): Promise<CreditMoveResponse> {
  return postMove(tx, await planTransferOrganizations(tx, user, input));
}

/** `transferOrganizations`'s move, its parties read and checked (move-queue.ts). */
export async function planTransferOrganizations(
  tx: Tx,
  user: AuthUser,
  input: TransferOrganizationsRequest,
): Promise<Move> {
  const [source, target] = (await organizationsActedOn(
    tx,
    user,
    [input.sourceOrganizationId, input.targetOrganizationId],
    'transfer_org_credits',
  )) as [OrganizationParty, OrganizationParty];
  return {
    action: 'transfer_organizations',
    actorId: user.userId,
    description: `${count(input.amount)} from the ${input.fromOrganizationPoolType} pool of ${source.name} to the ${input.toOrganizationPoolType} pool of ${target.name}`,
    lines: [
      { accountId: poolAccount(source, input.fromOrganizationPoolType), amount: -input.amount },
      { accountId: poolAccount(target, input.toOrganizationPoolType), amount: input.amount },
    ],
    amount: input.amount,
    total: input.amount,
    organizations: [source, target],
    users: [],
    refusal: (_, balance) => refuse.source(source.name, balance),
  };
}

/** POST /api/credit/allocate/system: a system admin mints credits into a pool (CONTRACT §5). */
export async function allocateSystemCredits(
  tx: Tx,
  user: AuthUser,
  input: AllocateSystemCreditsRequest,
): Promise<CreditMoveResponse> {
  await requireSystemAdmin(tx, user, { organizationId: input.organizationId, message: ONLY_SYSTEM_ADMINS });
  const org = await organizationActedOn(tx, user, input.organizationId, 'allocate_system_credits');
  return postMove(tx, {
    action: 'system_allocation',
    actorId: user.userId,
    description: input.description,
    lines: [
      { accountId: await systemAccountId(tx), amount: -input.amount },
      { accountId: poolAccount(org, input.toPool), amount: input.amount },
    ],
    amount: input.amount,
    total: input.amount,
    organizations: [org],
    users: [],
    refusal: () => refuse.pool(input.toPool),
  });
}
