import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import {
  InsufficientCreditsError,
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../../src/features/credits/journal';
import { rebuildOrganizationCreditTotals } from '../../src/features/credits/organization-credit-totals';
import { getOrganizationCredits } from '../../src/features/organizations/read-service';
import { openTestDatabase } from '../support/test-database';
import { createWorld, type World } from '../support/world';

let database: Database;
let world: World;
beforeAll(async () => {
  database = await openTestDatabase();
  world = await createWorld(database.db);
});
afterAll(() => database.close());

/** Every organization's stored figures next to the same figures recomputed from the balances. */
async function storedAndRecomputed() {
  return rows<{ name: string; stored: string; recomputed: string }>(
    database.db,
    sql`select o.name, concat_ws('/', o.shared_credits, o.protected_credits, o.subtree_credits) as stored,
          concat_ws('/',
            coalesce((select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'shared'), 0),
            coalesce((select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'protected'), 0),
            coalesce((select sum(a.balance) from organization_closure c
                      join credit_accounts a on a.organization_id = c.descendant_id
                      where c.ancestor_id = o.id and c.depth > 0), 0)) as recomputed
        from organizations o order by o.name`,
  );
}

async function expectTotalsMatchBalances() {
  for (const row of await storedAndRecomputed()) {
    expect({ name: row.name, pools: row.stored }).toEqual({ name: row.name, pools: row.recomputed });
  }
}

/** A small deterministic random generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

describe('credit figures stored on organizations (own pools, pools below)', () => {
  it('start from the balances the world minted', async () => {
    const alpha = await rows<{ subtree_credits: string }>(
      database.db,
      sql`select subtree_credits from organizations where id = ${world.orgs.alpha}`,
    );
    // The world mints into Alpha District's own pools only: nothing lies below it yet.
    expect(Number(alpha[0]?.subtree_credits)).toBe(0);
    await expectTotalsMatchBalances();
  });

  it('follow a randomized workload of moves, mints and refused overdrafts, some at once', async () => {
    const db = database.db;
    const { alpha, schoolA, annex, schoolB, beta } = world.orgs;
    const pools: string[] = [];
    for (const org of [alpha, schoolA, annex, schoolB, beta]) {
      for (const pool of ['shared', 'protected'] as const)
        pools.push(await organizationPoolAccountId(db, org, pool));
    }
    const system = await systemAccountId(db);
    const next = random(7);
    let refused = 0;
    for (let round = 0; round < 12; round++) {
      const batch = Array.from({ length: 8 }, () => {
        const from = next(8) === 0 ? system : (pools[next(pools.length)] as string);
        const to = pools[next(pools.length)] as string;
        const amount = 1 + next(from === system ? 300 : 900);
        return db
          .transaction((tx) =>
            postCreditTransaction(tx, {
              action: from === system ? 'system_allocation' : 'transfer_organizations',
              actorId: null,
              lines: [
                { accountId: from, amount: -amount },
                { accountId: to, amount },
              ],
            }),
          )
          .catch((error) => {
            if (!(error instanceof InsufficientCreditsError)) throw error;
            refused++;
          });
      });
      await Promise.all(batch);
      await expectTotalsMatchBalances();
    }
    // The workload must have exercised both paths.
    expect(refused).toBeGreaterThan(0);
    const [district] = await rows<{ subtree_credits: string }>(
      db,
      sql`select subtree_credits from organizations where id = ${alpha}`,
    );
    expect(Number(district?.subtree_credits)).toBeGreaterThan(0);
  });

  it('answer the credits call of a district with the pools below it', async () => {
    const [below] = await rows<{ total: string }>(
      database.db,
      sql`select coalesce(sum(a.balance), 0)::text as total from credit_accounts a
          where a.organization_id in (${world.orgs.schoolA}, ${world.orgs.annex}, ${world.orgs.schoolB})`,
    );
    const credits = await getOrganizationCredits(
      database.db,
      { sessionId: '', userId: world.users.systemAdmin.id, email: '', name: '', isSystemAdmin: true },
      world.orgs.alpha,
    );
    expect(credits.subOrganizations).toBe(Number(below?.total));
    expect(credits.subOrganizations).toBeGreaterThan(0);
  });

  it('can be rebuilt from the balances after a bulk write', async () => {
    await database.db.execute(
      sql`update organizations set subtree_credits = 0, shared_credits = 7, protected_credits = 0`,
    );
    await rebuildOrganizationCreditTotals(database.db);
    await expectTotalsMatchBalances();
  });
});
