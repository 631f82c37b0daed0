import type {
  AssignUsersRequest,
  CreditMoveResponse,
  ReclaimUsersRequest,
  TransferUsersRequest,
} from '@allot/domain/credits';
import type { Tx } from '../../db/client';
import type { AuthUser } from '../../http/authenticate';
import { count, namesOf, postMove, refuse } from './move-answer';
import { membersOf, organizationActedOn, organizationOfBoth, poolAccount, type UserParty } from './parties';

const nameOf = (users: UserParty[], accountId: string) =>
  users.find((u) => u.account === accountId)?.name ?? '';

/** POST /api/credit/assign/users: `amount` to each member, from one pool of their organization. */
export async function assignUsers(
  tx: Tx,
  user: AuthUser,
  input: AssignUsersRequest,
): Promise<CreditMoveResponse> {
  const org = await organizationActedOn(tx, user, input.organizationId, 'manage_users');
  const members = await membersOf(tx, org, input.userIds);
  const total = input.amount * members.length;
  return postMove(tx, {
    action: 'assign_users',
    actorId: user.userId,
    description: `${count(input.amount)}${members.length > 1 ? ' each' : ''} to ${namesOf(members)} from the ${input.fromOrganizationPoolType} pool`,
    lines: [
      { accountId: poolAccount(org, input.fromOrganizationPoolType), amount: -total },
      ...members.map((m) => ({ accountId: m.account, amount: input.amount })),
    ],
    amount: input.amount,
    total,
    organizations: [org],
    users: members,
    refusal: () => refuse.pool(input.fromOrganizationPoolType),
  });
}

/** POST /api/credit/reclaim/users: `amount` from each member into a pool of their organization. */
export async function reclaimUsers(
  tx: Tx,
  user: AuthUser,
  input: ReclaimUsersRequest,
): Promise<CreditMoveResponse> {
  const org = await organizationActedOn(tx, user, input.organizationId, 'manage_users');
  const members = await membersOf(tx, org, input.userIds);
  const total = input.amount * members.length;
  return postMove(tx, {
    action: 'reclaim_users',
    actorId: user.userId,
    description: `${count(input.amount)}${members.length > 1 ? ' each' : ''} from ${namesOf(members)} into the ${input.toOrganizationPoolType} pool`,
    lines: [
      ...members.map((m) => ({ accountId: m.account, amount: -input.amount })),
      { accountId: poolAccount(org, input.toOrganizationPoolType), amount: total },
    ],
    amount: input.amount,
    total,
    organizations: [org],
    users: members,
    refusal: (accountId, balance) => refuse.source(nameOf(members, accountId), balance),
  });
}

/**
 * POST /api/credit/transfer/users: from one member's balance to another's, in one organization the caller
 * manages (CONTRACT §5): the named one, else the one both belong to where the caller may act.
 */
export async function transferUsers(
  tx: Tx,
  user: AuthUser,
  input: TransferUsersRequest,
): Promise<CreditMoveResponse> {
  const organizationId =
    input.organizationId ?? (await organizationOfBoth(tx, user, input.sourceUserId, input.targetUserId));
  const org = await organizationActedOn(tx, user, organizationId, 'manage_users');
  const [source, target] = (await membersOf(tx, org, [input.sourceUserId, input.targetUserId])) as [
    UserParty,
    UserParty,
  ];
  return postMove(tx, {
    action: 'transfer_users',
    actorId: user.userId,
    description: `${count(input.amount)} from ${source.name} to ${target.name}`,
    lines: [
      { accountId: source.account, amount: -input.amount },
      { accountId: target.account, amount: input.amount },
    ],
    amount: input.amount,
    total: input.amount,
    organizations: [],
    users: [source, target],
    transferOrganizationId: org.id,
    refusal: (_, balance) => refuse.source(source.name, balance),
  });
}
