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
import { rollUpCreditUsage } from '../../src/features/insights/usage-rollup';
import { getOrganizationCredits } from '../../src/features/organizations/find-organizations';
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
    sql`select o.name, concat_ws('/', o.shared_credits, o.protected_credits, subtree_pool_credits_of(o.id)) as stored,
          concat_ws('/',
            coalesce((select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'shared'), 0),
            coalesce((select balance from credit_accounts a where a.organization_id = o.id and a.kind = 'protected'), 0),
            coalesce((select sum(a.balance) from organization_closure c
                      join credit_accounts a on a.organization_id = c.descendant_id and a.kind in ('shared', 'protected')
                      where c.ancestor_id = o.id and c.depth > 0), 0)) as recomputed
        from organizations o order by o.name`,
  );
}

async function poolsBelow(organizationId: string) {
  const [row] = await rows<{ v: string }>(
    database.db,
    sql`select subtree_pool_credits_of(${organizationId})::text as v`,
  );
  return Number(row?.v);
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

describe('credit figures stored beside the journal (own pools on organizations, pools below by the roll-up)', () => {
  it('start from the balances the world minted', async () => {
    // The world mints into Alpha District's own pools only: nothing lies below it yet.
    expect(await poolsBelow(world.orgs.alpha)).toBe(0);
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
      // The roll-up folds the queued lines into the pools below while postings go on (decision 016): a reader
      // sees each line either queued or counted, never both, never neither.
      const rollUps = round % 2 === 0 ? [rollUpCreditUsage(db, { batchSize: 3 })] : [];
      await Promise.all([...batch, ...rollUps]);
      await expectTotalsMatchBalances();
    }
    await rollUpCreditUsage(db);
    expect((await rows(db, sql`select 1 from credit_usage_queue`)).length).toBe(0);
    await expectTotalsMatchBalances();
    // The workload must have exercised both paths.
    expect(refused).toBeGreaterThan(0);
    expect(await poolsBelow(alpha)).toBeGreaterThan(0);
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
    await database.db.execute(sql`update organizations set shared_credits = 7, protected_credits = 0`);
    await database.db.execute(sql`update subtree_pool_credits set credits = credits + 5`);
    await rebuildOrganizationCreditTotals(database.db);
    await expectTotalsMatchBalances();
  });
});
