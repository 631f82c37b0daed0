import type { UserParty } from './parties';

/** One reclaim call of "everything each holds": an amount, and the people who each hold exactly that. */
export interface ReclaimAllCall {
  amount: number;
  users: UserParty[];
}

/**
 * "Everything each holds" as the reclaim call can take it (issue 33, item 8). POST /api/credit/reclaim/users takes
 * one `amount` from each person it names (CONTRACT §5): so one call per distinct balance, with everyone who holds
 * that much, largest first; people who hold nothing are left out (an amount is at least 1). Each call is all or
 * nothing; the series is not.
 */
export function reclaimAllCalls(users: readonly UserParty[]): ReclaimAllCall[] {
  const byAmount = new Map<number, UserParty[]>();
  for (const user of users) {
    if (user.credits <= 0) continue;
    byAmount.set(user.credits, [...(byAmount.get(user.credits) ?? []), user]);
  }
  return [...byAmount].sort(([a], [b]) => b - a).map(([amount, holders]) => ({ amount, users: holders }));
}

/** What the calls take in all. */
export function reclaimAllTotal(calls: readonly ReclaimAllCall[]): number {
  return calls.reduce((sum, call) => sum + call.amount * call.users.length, 0);
}
