import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCreditWorkload, type Send } from '../support/credit-workload';
import { deadlocksRetried } from '../support/deadlocks';
import { conservationViolations, ledgerViolations } from '../support/ledger';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { type WorkloadCallers, workloadCallers } from '../support/workload-callers';

/**
 * Issue 10's proof of correctness, in one process (`app.inject`), on PGlite and on PostgreSQL: a randomized
 * concurrent workload against the model, and the classic races; none of it deadlocks (issue 31: every write
 * takes its locks in locks.ts's order). `LEDGER_ROUNDS` and `LEDGER_SEED` make a longer or another run.
 */
const ROUNDS = Number(process.env.LEDGER_ROUNDS ?? 50);
const SEED = Number(process.env.LEDGER_SEED ?? 20261123);

let t: TestApp;
let callers: WorkloadCallers;
let deadlocksBefore = 0;
beforeAll(async () => {
  t = await createTestApp();
  callers = await workloadCallers(t);
  deadlocksBefore = deadlocksRetried();
});
afterAll(() => t.close());

const send: Send = (who, request, key) => callers.send(who, request, key);

const move = (url: string, payload: object, key?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(callers.tokens.owner), ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });

async function poolsOf(organizationId: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/organization/${organizationId}?credits=true`,
    headers: bearer(callers.tokens.owner),
  });
  return response.json<{ credits: { shared: number; protected: number } }>().credits;
}

describe('the credit ledger under a randomized concurrent workload', () => {
  it(`${ROUNDS} rounds of 30 moves and consumptions (single and batches) at once, repeats and reused keys: the model and every invariant agree`, async () => {
    const failures: string[] = [];
    const report = await runCreditWorkload({
      send,
      db: t.db,
      world: t.world,
      seed: SEED,
      rounds: ROUNDS,
      concurrency: 30,
      consumption: true,
      fail: (message) => failures.push(message),
    });
    expect(failures.slice(0, 10)).toEqual([]);
    // A deadlock is retried (db/transaction.ts), so no answer shows it: the retries are counted.
    expect(deadlocksRetried() - deadlocksBefore, 'deadlocks retried').toBe(0);
    // The workload must exercise both outcomes and the keys.
    expect(report.applied).toBeGreaterThan(ROUNDS * 10);
    expect(report.refused).toBeGreaterThan(ROUNDS);
    expect(report.replays).toBeGreaterThan(0);
    expect(report.reusedKeys).toBeGreaterThan(0);
    expect(report.consumed).toBeGreaterThan(ROUNDS);
    expect(report.batches).toBeGreaterThan(ROUNDS / 2);
    expect(report.consumedInBatches).toBeGreaterThan(ROUNDS);
  }, 300_000);
});

describe('the classic races', () => {
  it('20 debits of 10 at once from a pool of 100: exactly 10 pass, 10 are refused, nothing below zero', async () => {
    const { alpha, schoolB, annex } = t.world.orgs;
    await move('/api/credit/allocate/system', {
      organizationId: alpha,
      amount: 5000,
      toPool: 'shared',
      description: 'x',
    });
    // Empty School B's shared pool into the district, then give it exactly 100.
    const held = (await poolsOf(schoolB)).shared;
    if (held > 0) {
      await move('/api/credit/reclaim/organizations', {
        amount: held,
        sourceOrganizationIds: [schoolB],
        reclaimFromStrategy: 'shared',
        targetOrganizationId: alpha,
        toOrganizationPoolType: 'shared',
      });
    }
    await move('/api/credit/assign/organizations', {
      amount: 100,
      sourceOrganizationId: alpha,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [schoolB],
      toOrganizationPoolType: 'shared',
    });
    expect((await poolsOf(schoolB)).shared).toBe(100);
    const annexBefore = await poolsOf(annex);

    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        move('/api/credit/transfer/organizations', {
          amount: 10,
          sourceOrganizationId: schoolB,
          fromOrganizationPoolType: 'shared',
          targetOrganizationId: annex,
          toOrganizationPoolType: 'protected',
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(10).fill(422)]);
    expect(answers.find((a) => a.statusCode === 422)?.json().message).toMatch(
      /^Alpha School B only has \d+ credits/,
    );
    expect((await poolsOf(schoolB)).shared).toBe(0);
    expect((await poolsOf(annex)).protected).toBe(annexBefore.protected + 100);
    expect(await ledgerViolations(t.db)).toEqual([]);
    expect(await conservationViolations(t.db)).toEqual([]);
  });

  it('500 moves A→B and 500 B→A at once: every answer 200, both end where they started', async () => {
    const { alpha, schoolA } = t.world.orgs;
    await move('/api/credit/allocate/system', {
      organizationId: schoolA,
      amount: 500,
      toPool: 'protected',
      description: 'x',
    });
    await move('/api/credit/allocate/system', {
      organizationId: alpha,
      amount: 500,
      toPool: 'protected',
      description: 'x',
    });
    const before = [await poolsOf(alpha), await poolsOf(schoolA)];
    const transfer = (source: string, target: string) =>
      move('/api/credit/transfer/organizations', {
        amount: 1,
        sourceOrganizationId: source,
        fromOrganizationPoolType: 'protected',
        targetOrganizationId: target,
        toOrganizationPoolType: 'protected',
      });
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        i % 2 === 0 ? transfer(alpha, schoolA) : transfer(schoolA, alpha),
      ),
    );
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1000 });
    expect([await poolsOf(alpha), await poolsOf(schoolA)]).toEqual(before);
    expect(await ledgerViolations(t.db)).toEqual([]);
    expect(await conservationViolations(t.db)).toEqual([]);
  }, 120_000);
});

describe('deadlocks', () => {
  it('none in this file: neither retried by the server nor counted by PostgreSQL', async () => {
    const retried = deadlocksRetried() - deadlocksBefore;
    // PostgreSQL's own count (pg_stat_database), complete once the connections have ended: the last test.
    const counted = (await t.database.deadlocks?.()) ?? 0;
    expect({ retried, counted }).toEqual({ retried: 0, counted: 0 });
  }, 60_000);
});
