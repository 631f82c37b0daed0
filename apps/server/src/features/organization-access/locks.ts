import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';

/*
 * The lock order of every write transaction (apps/server/src/db/README.md, "The tables, by subject", Locks):
 *   0. a request up the tree being decided (requests/request-access.ts), and the open requests of an organization
 *      being deleted: before anything else, since an approval then posts through the journal;
 *   1. credit accounts, in id order (the journal, removals, deletes);
 *   2. organization rows, root first: by depth, then id (creates and deletes lock the whole chain, since
 *      the counters of every ancestor move; the journal locks the rows whose credit figures move);
 *   3. licence rows: of one organization in id order; a move, the upper organization's before the lower
 *      ones' (seats; counted after the lock: licenses/seats.ts);
 *   4. memberships and invitations, in user id order.
 * Two transactions that take their locks in one order cannot wait for each other in a circle. A row that
 * references an organization takes `key share` on it when inserted (its foreign-key check), wherever the
 * transaction is: only `update` blocks that, so member changes take `no key update` (lockOrganization).
 * What still collides (a unique index two requests insert into at once) is retried by `writeTransaction`.
 */

export interface LockedOrganization {
  id: string;
  name: string;
  parentId: string | null;
}

/**
 * Locks a live organization and every ancestor, root first, against changes of their counters and credit
 * figures (`no key update`: rows that only reference them still insert); the organization itself with
 * `update` when the caller will delete it. `404` when it is not (or no longer) there. Answers the chain,
 * root first, the organization last.
 */
export async function lockOrganizationChain(
  tx: Tx,
  organizationId: string,
  self: 'no key update' | 'update' = 'no key update',
): Promise<LockedOrganization[]> {
  const chain = await rows<{ id: string; name: string; parent_id: string | null }>(
    tx,
    sql`select o.id, o.name, o.parent_id from organization_closure c
        join organizations o on o.id = c.ancestor_id
        where c.descendant_id = ${organizationId} and o.deleted_at is null
        order by c.depth desc
        for no key update of o`,
  );
  const last = chain.at(-1);
  if (last?.id !== organizationId) throw AppError.notFound();
  if (self === 'update') await lockOrganization(tx, organizationId, 'update');
  return chain.map((o) => ({ id: o.id, name: o.name, parentId: o.parent_id }));
}

/**
 * Locks one organization row; `404` when it is gone. `no key update` (the default) holds off its deletion and
 * serializes the changes of its members (two ownership transfers must not cross, two imports must not count
 * the same free seat), while rows that only reference the organization still insert: their foreign-key check
 * takes `key share`, which only `update` blocks. (A member change that held `update` and waited for a licence
 * deadlocked with a licence change that held the licence and wrote its log entry, which references the
 * organization: issue 30.) `update` is for the organization's delete. `key share` only holds off the
 * deletion: a change that then locks credit accounts must not hold the row the credit journal updates after
 * locking its accounts (rule 1 before rule 2 above).
 */
export async function lockOrganization(
  tx: Tx,
  organizationId: string,
  strength: 'update' | 'no key update' | 'key share' = 'no key update',
): Promise<{ name: string }> {
  const [org] = await rows<{ name: string }>(
    tx,
    sql`select name from organizations where id = ${organizationId} and deleted_at is null
        for ${sql.raw(strength)}`,
  );
  if (!org) throw AppError.notFound();
  return org;
}
