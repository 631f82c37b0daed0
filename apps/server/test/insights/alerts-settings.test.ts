import { CREDIT_ALERT_MESSAGES } from '@allot/domain/insights';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { createTestApp, type TestApp } from '../support/test-app';
import { alertCalls } from './alerts-calls';

/**
 * GET/PUT /api/organization/{id}/credit-alerts (CONTRACT §10; decision 014): off by default, at most three,
 * the domain's messages per field, and the state the screen explains (pool, reference, levels, fired).
 */
let t: TestApp;
let calls: ReturnType<typeof alertCalls>;
beforeAll(async () => {
  t = await createTestApp();
  calls = alertCalls(t);
});
afterAll(() => t.close());

describe('credit alert settings', () => {
  it('are off by default, and show the shared pool', async () => {
    const response = await calls.get(t.world.orgs.schoolB);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      thresholds: [],
      organizationId: t.world.orgs.schoolB,
      sharedCredits: 0,
      referenceBalance: null,
      levels: [],
      updatedAt: null,
    });
  });

  it('mark the organization once saved, so that the alert trigger runs only where alerts are set', async () => {
    const flag = async (id: string) =>
      (
        await rows<{ on: boolean }>(t.db, sql`select credit_alerts as on from organizations where id = ${id}`)
      )[0]?.on;
    const school = t.world.orgs.annex;
    expect(await flag(school)).toBe(false);
    await calls.settings(school, [{ kind: 'credits', value: 10 }]);
    expect(await flag(school)).toBe(true);
    // Saved again without thresholds: still marked (the trigger reads the settings and finds none to fire).
    await calls.settings(school, []);
    expect(await flag(school)).toBe(true);
  });

  it('saves up to three thresholds, the pool now as the reference, each with its level in credits', async () => {
    // Alpha District holds 500 in its shared pool (test world).
    const response = await calls.put(t.world.orgs.alpha, {
      thresholds: [
        { kind: 'percent_of_last_topup', value: 25 },
        { kind: 'percent_of_last_topup', value: 10 },
        { kind: 'credits', value: 30 },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json();
    expect(saved).toMatchObject({
      thresholds: [
        { kind: 'percent_of_last_topup', value: 25 },
        { kind: 'percent_of_last_topup', value: 10 },
        { kind: 'credits', value: 30 },
      ],
      sharedCredits: 500,
      referenceBalance: 500,
      levels: [
        { kind: 'percent_of_last_topup', value: 25, level: 125, fired: false },
        { kind: 'percent_of_last_topup', value: 10, level: 50, fired: false },
        { kind: 'credits', value: 30, level: 30, fired: false },
      ],
    });
    expect(Date.parse(saved.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await calls.get(t.world.orgs.alpha)).json()).toEqual(saved);
  });

  it('says which threshold fired since the last top-up; a top-up re-arms them and moves the reference', async () => {
    const alpha = t.world.orgs.alpha;
    await calls.settings(alpha, [
      { kind: 'percent_of_last_topup', value: 25 },
      { kind: 'credits', value: 30 },
    ]);
    await calls.debit(alpha, 400); // 500 → 100: below 125, above 30
    let state = (await calls.get(alpha)).json();
    expect(state.sharedCredits).toBe(100);
    expect(state.levels.map((l: { fired: boolean }) => l.fired)).toEqual([true, false]);

    await calls.topUp(alpha, 300); // 100 → 400
    state = (await calls.get(alpha)).json();
    expect(state.referenceBalance).toBe(400);
    expect(state.levels).toEqual([
      { kind: 'percent_of_last_topup', value: 25, level: 100, fired: false },
      { kind: 'credits', value: 30, level: 30, fired: false },
    ]);

    // Saving clears what fired and keeps the reference the trigger kept (alerts were on).
    await calls.debit(alpha, 350); // 400 → 50
    expect((await calls.get(alpha)).json().levels.map((l: { fired: boolean }) => l.fired)).toEqual([
      true,
      false,
    ]);
    const resaved = await calls.settings(alpha, [{ kind: 'percent_of_last_topup', value: 25 }]);
    expect(resaved).toMatchObject({
      sharedCredits: 50,
      referenceBalance: 400,
      levels: [{ level: 100, fired: false }],
    });
  });

  it('takes the pool now as the reference when alerts were off meanwhile (top-ups were not followed)', async () => {
    const alpha = t.world.orgs.alpha;
    expect((await calls.settings(alpha, [])).thresholds).toEqual([]);
    await calls.topUp(alpha, 150); // 50 → 200, not followed: alerts are off
    const saved = await calls.settings(alpha, [{ kind: 'percent_of_last_topup', value: 10 }]);
    expect(saved).toMatchObject({ sharedCredits: 200, referenceBalance: 200, levels: [{ level: 20 }] });
  });

  it('refuses what is not a threshold with the message on the field', async () => {
    const alpha = t.world.orgs.alpha;
    const before = (await calls.get(alpha)).json();
    const cases: [unknown, Record<string, string>][] = [
      [
        {
          thresholds: [
            { kind: 'credits', value: 10 },
            { kind: 'credits', value: 20 },
            { kind: 'credits', value: 30 },
            { kind: 'credits', value: 40 },
          ],
        },
        { thresholds: CREDIT_ALERT_MESSAGES.tooMany },
      ],
      [
        { thresholds: [{ kind: 'percent_of_last_topup', value: 0 }] },
        { 'thresholds.0.value': CREDIT_ALERT_MESSAGES.percent },
      ],
      [
        { thresholds: [{ kind: 'percent_of_last_topup', value: 100 }] },
        { 'thresholds.0.value': CREDIT_ALERT_MESSAGES.percent },
      ],
      [
        {
          thresholds: [
            { kind: 'credits', value: 50 },
            { kind: 'credits', value: 2.5 },
          ],
        },
        { 'thresholds.1.value': CREDIT_ALERT_MESSAGES.credits },
      ],
      [
        { thresholds: [{ kind: 'credits', value: -5 }] },
        { 'thresholds.0.value': CREDIT_ALERT_MESSAGES.credits },
      ],
      [
        { thresholds: [{ kind: 'credits', value: 'ten' }] },
        { 'thresholds.0.value': CREDIT_ALERT_MESSAGES.value },
      ],
      [{ thresholds: [{ kind: 'dollars', value: 10 }] }, { 'thresholds.0.kind': CREDIT_ALERT_MESSAGES.kind }],
      [
        {
          thresholds: [
            { kind: 'credits', value: 10 },
            { kind: 'credits', value: 10 },
          ],
        },
        { thresholds: CREDIT_ALERT_MESSAGES.duplicate },
      ],
      [{}, { thresholds: CREDIT_ALERT_MESSAGES.list }],
    ];
    for (const [payload, fields] of cases) {
      const response = await calls.put(alpha, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toMatchObject({
        error: 'invalid_input',
        details: { fields },
      });
    }
    expect((await calls.get(alpha)).json()).toEqual(before);
  });

  it('needs view_audit_logs where the caller sees the organization, and is 404 elsewhere', async () => {
    const { users, orgs } = t.world;
    // A school's admin sets its school's alerts, not its district's.
    expect((await calls.put(orgs.schoolA, { thresholds: [] }, users.schoolAdmin.id)).statusCode).toBe(200);
    expect((await calls.get(orgs.alpha, users.schoolAdmin.id)).statusCode).toBe(404);
    expect((await calls.put(orgs.alpha, { thresholds: [] }, users.betaOwner.id)).statusCode).toBe(404);
    expect((await calls.get(orgs.schoolA, users.teacher.id)).statusCode).toBe(404);
    expect((await calls.get('not-an-id')).statusCode).toBe(404);
  });
});
