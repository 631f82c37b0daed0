import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { deliverCreditAlerts } from '../../src/features/insights/alert-delivery';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';
import { alertCalls } from './alerts-calls';

/**
 * "Never twice with several server processes" (issue 16 item 3): debits that race each other cross a
 * threshold once (the alert trigger runs under the organization's row lock), and two alert workers running
 * at the same moment deliver each event once (FOR UPDATE SKIP LOCKED). Meant for PostgreSQL, where the
 * requests really run at once; it holds on PGlite too.
 */
let t: TestApp;
let calls: ReturnType<typeof alertCalls>;
const settings = { publicUrl: TEST_PUBLIC_URL };

beforeAll(async () => {
  t = await createTestApp();
  calls = alertCalls(t);
});
afterAll(() => t.close());

describe('low-balance alerts under concurrency', () => {
  it('20 concurrent debits crossing a threshold, two workers at once: one mail per recipient', async () => {
    const alpha = t.world.orgs.alpha; // shared 500
    await calls.settings(alpha, [{ kind: 'credits', value: 300 }]);

    // 20 × 15 = 300 leaves 200: the 14th debit crosses 300. Workers run while the debits go on, and after.
    const during = [deliverCreditAlerts(t.db, settings), deliverCreditAlerts(t.db, settings)];
    const debits = await Promise.all(Array.from({ length: 20 }, () => calls.move(alpha, 15, 'shared')));
    expect(debits.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const after = await Promise.all([
      deliverCreditAlerts(t.db, settings),
      deliverCreditAlerts(t.db, settings),
    ]);
    const delivered = [...(await Promise.all(during)), ...after].reduce((a, b) => a + b, 0);
    expect(delivered).toBe(1);
    expect(await calls.sharedPool(alpha)).toBe(200);

    expect(await rows(t.db, sql`select id from credit_alert_events`)).toEqual([]);
    const alertMails = await rows<{ to_address: string }>(
      t.db,
      sql`select to_address from mail_outbox where kind = 'credit_alert' order by to_address`,
    );
    expect(alertMails.map((m) => m.to_address)).toEqual(['admin@alpha.test', 'owner@alpha.test']);
    const state = (await calls.get(alpha)).json();
    expect(state.levels).toEqual([{ kind: 'credits', value: 300, level: 300, fired: true }]);
  });

  it('a save and postings at once neither deadlock nor lose the save', async () => {
    const alpha = t.world.orgs.alpha; // shared 200, protected 500
    const work = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => calls.move(alpha, 10, i % 2 ? 'shared' : 'protected')),
      calls.put(alpha, { thresholds: [{ kind: 'credits', value: 150 }] }),
      ...Array.from({ length: 10 }, (_, i) => calls.move(alpha, 10, i % 2 ? 'protected' : 'shared')),
    ]);
    expect(work.map((r) => r.statusCode)).toEqual(Array(21).fill(200));
    expect(await calls.sharedPool(alpha)).toBe(200);
    expect((await calls.get(alpha)).json().thresholds).toEqual([{ kind: 'credits', value: 150 }]);
  });
});
