import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import {
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../../src/features/credits/journal';
import { rollUpCreditUsage } from '../../src/features/insights/usage-rollup';
import { runCreditWorkload, type Send } from '../support/credit-workload';
import { createTestApp, type TestApp } from '../support/test-app';
import { type WorkloadCallers, workloadCallers } from '../support/workload-callers';
import { queued, referenceUsage, rolledUpUsage, sorted } from './usage-reference';

/*
 * The roll-up (decision 014, "Roll-up") against a plain reference that scans the journal: after a seeded
 * randomized workload of real moves and consumptions through the API, rolled up in several runs, some of
 * them at once, credit_usage_days equals the reference row for row.
 */
const SEED = Number(process.env.USAGE_SEED ?? 16_2026);

let t: TestApp;
let callers: WorkloadCallers;
beforeAll(async () => {
  t = await createTestApp();
  callers = await workloadCallers(t);
});
afterAll(() => t.close());

const send: Send = (who, request, key) => callers.send(who, request, key);

async function consumedAccount(organizationId: string) {
  await t.db.execute(
    sql`insert into credit_accounts (kind, organization_id) values ('consumed', ${organizationId}) on conflict do nothing`,
  );
  const [row] = await rows<{ id: string }>(
    t.db,
    sql`select id from credit_accounts where organization_id = ${organizationId} and kind = 'consumed'`,
  );
  return row?.id as string;
}

/** Postings of the past around UTC midnights and month ends, straight through the journal (as seeds do). */
async function postPast() {
  const { alpha, schoolA, annex } = t.world.orgs;
  const system = await systemAccountId(t.db);
  const alphaShared = await organizationPoolAccountId(t.db, alpha, 'shared');
  const annexShared = await organizationPoolAccountId(t.db, annex, 'shared');
  const at = (iso: string) => new Date(iso);
  await postCreditTransaction(t.db, {
    action: 'system_allocation',
    actorId: null,
    lines: [
      { accountId: system, amount: -900 },
      { accountId: alphaShared, amount: 900 },
    ],
    createdAt: at('2025-01-31T23:59:59.900Z'),
  });
  await postCreditTransaction(t.db, {
    action: 'assign_organizations',
    actorId: null,
    lines: [
      { accountId: alphaShared, amount: -300 },
      { accountId: annexShared, amount: 300 },
    ],
    createdAt: at('2025-02-01T00:00:00.000Z'),
  });
  await postCreditTransaction(t.db, {
    action: 'consumption',
    actorId: t.world.users.teacher.id,
    lines: [
      { accountId: annexShared, amount: -40 },
      { accountId: await consumedAccount(annex), amount: 40 },
    ],
    createdAt: at('2025-02-28T23:30:00Z'),
  });
  return { schoolA };
}

describe('the credit usage roll-up', () => {
  it('after a randomized workload of moves and consumptions rolled up in several runs, every row equals the reference', async () => {
    await postPast();
    const failures: string[] = [];
    let rolled = 0;
    for (let part = 0; part < 3; part++) {
      const report = await runCreditWorkload({
        send,
        db: t.db,
        world: t.world,
        seed: SEED + part,
        rounds: 4,
        concurrency: 20,
        consumption: true,
        fail: (message) => failures.push(message),
      });
      expect(report.applied).toBeGreaterThan(20);
      const waiting = await queued(t.db);
      expect(waiting).toBeGreaterThan(0);
      // Small batches: many claims, each its own transaction.
      const count = await rollUpCreditUsage(t.db, { batchSize: 7 });
      expect(count).toBe(waiting);
      expect(await queued(t.db)).toBe(0);
      rolled += count;
    }
    expect(failures.slice(0, 5)).toEqual([]);
    const [journal] = await rows<{ n: string; consumptions: string }>(
      t.db,
      sql`select count(*)::text as n, count(*) filter (where action = 'consumption')::text as consumptions
          from credit_transactions`,
    );
    expect(rolled).toBe(Number(journal?.n));
    expect(Number(journal?.consumptions)).toBeGreaterThan(3);

    const expected = await referenceUsage(t.db);
    expect(sorted(await rolledUpUsage(t.db))).toEqual(sorted(expected));

    // The month end and midnights land on their UTC days.
    const { alpha, annex, schoolA } = t.world.orgs;
    expect(expected.get(`${alpha} 2025-01-31`)).toEqual({ received: 900, handedDown: 0, consumed: 0 });
    expect(expected.get(`${alpha} 2025-02-01`)).toEqual({ received: 0, handedDown: 300, consumed: 0 });
    expect(expected.get(`${schoolA} 2025-02-01`)).toEqual({ received: 300, handedDown: 0, consumed: 0 });
    expect(expected.get(`${annex} 2025-02-28`)).toEqual({ received: 0, handedDown: 0, consumed: 40 });
    // The consumer of a posting with an actor, and the consumers through the integration key.
    const consumers = await rows<{ user_id: string; organization_id: string; last: string }>(
      t.db,
      sql`select user_id, organization_id, to_char(last_consumed_on, 'YYYY-MM-DD') as last from member_consumption`,
    );
    expect(consumers.length).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    for (const c of consumers) {
      const expectedLast =
        c.user_id === t.world.users.teacher.id && c.organization_id === annex ? '2025-02-28' : today;
      expect(c.last).toBe(expectedLast);
    }
  }, 240_000);

  it('two roll-ups at once count each transaction once', async () => {
    await runCreditWorkload({
      send,
      db: t.db,
      world: t.world,
      seed: SEED + 10,
      rounds: 3,
      concurrency: 20,
      consumption: true,
      fail: () => {},
    });
    const waiting = await queued(t.db);
    expect(waiting).toBeGreaterThan(10);
    const counts = await Promise.all([
      rollUpCreditUsage(t.db, { batchSize: 3 }),
      rollUpCreditUsage(t.db, { batchSize: 3 }),
      rollUpCreditUsage(t.db, { batchSize: 5 }),
    ]);
    // Each run stops at its first short batch; whatever is left is picked up by the next.
    const rest = await rollUpCreditUsage(t.db);
    expect(counts.reduce((a, b) => a + b, 0) + rest).toBe(waiting);
    expect(sorted(await rolledUpUsage(t.db))).toEqual(sorted(await referenceUsage(t.db)));
  }, 120_000);

  it.runIf(process.env.ALLOT_TEST_DB === 'postgres')(
    'a posting committed after a roll-up started is counted by the next one, and a roll-up never holds up a posting',
    async () => {
      await rollUpCreditUsage(t.db);
      const { alpha } = t.world.orgs;
      const system = await systemAccountId(t.db);
      const shared = await organizationPoolAccountId(t.db, alpha, 'shared');
      const before = (await rolledUpUsage(t.db)).get(`${alpha} ${new Date().toISOString().slice(0, 10)}`);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let posted: () => void = () => {};
      const isPosted = new Promise<void>((resolve) => {
        posted = resolve;
      });
      const posting = t.db.transaction(async (tx) => {
        await postCreditTransaction(tx, {
          action: 'system_allocation',
          actorId: null,
          lines: [
            { accountId: system, amount: -11 },
            { accountId: shared, amount: 11 },
          ],
        });
        posted();
        await held;
      });
      await isPosted;
      // Not committed yet: the roll-up neither sees it nor waits for it.
      expect(await rollUpCreditUsage(t.db)).toBe(0);
      release();
      await posting;
      expect(await rollUpCreditUsage(t.db)).toBe(1);
      const after = (await rolledUpUsage(t.db)).get(`${alpha} ${new Date().toISOString().slice(0, 10)}`);
      expect((after?.received ?? 0) - (before?.received ?? 0)).toBe(11);

      // A roll-up's transaction open (its claim and its sums locked) does not hold up a posting.
      await postCreditTransaction(t.db, {
        action: 'system_allocation',
        actorId: null,
        lines: [
          { accountId: system, amount: -5 },
          { accountId: shared, amount: 5 },
        ],
      });
      let finish: () => void = () => {};
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      let locked: () => void = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const rolling = t.db.transaction(async (tx) => {
        await tx.execute(sql`delete from credit_usage_queue`);
        await tx.execute(
          sql`update credit_usage_days set received = received where organization_id = ${alpha}`,
        );
        locked();
        await finished;
        throw new Error('rolled back on purpose');
      });
      await isLocked;
      const started = Date.now();
      await postCreditTransaction(t.db, {
        action: 'system_allocation',
        actorId: null,
        lines: [
          { accountId: system, amount: -6 },
          { accountId: shared, amount: 6 },
        ],
      });
      expect(Date.now() - started).toBeLessThan(2_000);
      finish();
      await expect(rolling).rejects.toThrow('rolled back on purpose');
      expect(await rollUpCreditUsage(t.db)).toBe(2);
      expect(sorted(await rolledUpUsage(t.db))).toEqual(sorted(await referenceUsage(t.db)));
    },
    60_000,
  );
});
