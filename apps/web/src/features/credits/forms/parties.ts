import { CREDIT_POOL_LABEL, type CreditPool } from '@allot/domain/credits';
import { formatCount, formatCountOf } from '../../../lib/format';
import { credits, mostEach } from './amount';

/** Both pools of an organization. */
export interface Pools {
  shared: number;
  protected: number;
}

/** An organization taking part in a move, with the balances the screen last loaded. */
export interface OrganizationParty {
  id: string;
  name: string;
  credits: Pools;
}

/** A person taking part in a move, with the balance the screen last loaded. */
export interface UserParty {
  id: string;
  name: string;
  email: string;
  credits: number;
}

/** "shared pool", "protected pool": the label inside a sentence. */
export function poolName(pool: CreditPool): string {
  return CREDIT_POOL_LABEL[pool].toLowerCase();
}

/** "1,500 shared · 500 protected". */
export function poolsText(pools: Pools): string {
  return `${formatCount(pools.shared)} shared · ${formatCount(pools.protected)} protected`;
}

export const organizationDetail = (o: OrganizationParty) => ({
  id: o.id,
  name: o.name,
  detail: poolsText(o.credits),
});
export const userDetail = (u: UserParty) => ({ id: u.id, name: u.name, detail: credits(u.credits) });

/**
 * What the amount may be when each of `count` parties gets it from a pool holding `available`: "At most
 * 500, all of the shared pool." for one; for more, what each may get and what the pool holds for them all.
 */
export function mostText(available: number, pool: CreditPool, count = 1, one = ''): string {
  return count === 1
    ? `At most ${formatCount(available)}, all of the ${poolName(pool)}.`
    : `At most ${formatCount(mostEach(available, count))} each: the ${poolName(pool)} holds ${formatCount(available)} for ${formatCountOf(count, one, `${one}s`)}.`;
}
