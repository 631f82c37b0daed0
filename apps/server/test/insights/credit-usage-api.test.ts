import { FORECAST_WINDOW_DAYS, runsOutOn } from '@allot/domain/insights';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { memberAccountId, postCreditTransaction } from '../../src/features/credits/journal';
import { addDays, usageDaySeries } from '../../src/features/insights/credit-usage-days';
import { insertIntegrationKey, licence } from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/*
 * GET /api/organization/{id}/credit-usage (CONTRACT §10, decision 014): figures checked against a hand
 * calculation from the journal. The call rolls up what is queued itself, so no test calls the roll-up.
 */
let t: TestApp;
let owner = '';
let integrationKey = '';
let today = '';
beforeAll(async () => {
  t = await createTestApp();
  owner = await sessionFor(t.db, t.world.users.owner.id);
  integrationKey = (await insertIntegrationKey(t.db, t.world.orgs.alpha)).key;
  today = new Date().toISOString().slice(0, 10);
});
afterAll(() => t.close());

type Usage = {
  organizationId: string;
  from: string;
  to: string;
  days: { date: string; received: number; handedDown: number; consumed: number }[];
  forecast: {
    runsOutOn: string | null;
    windowDays: number;
    meanDailyConsumption: number;
    creditsAvailable: number;
  };
};

const usage = (organizationId: string, query = '', token = owner) =>
  t.app.inject({
    method: 'GET',
    url: `/api/organization/${organizationId}/credit-usage${query}`,
    headers: bearer(token),
  });
async function usageOf(organizationId: string, query = '') {
  const response = await usage(organizationId, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Usage>();
}
const move = async (url: string, payload: object) => {
  const response = await t.app.inject({ method: 'POST', url, headers: bearer(owner), payload });
  expect(response.statusCode, response.body).toBe(200);
};
let references = 0;
const consume = async (email: string, credits: number) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/integration/consume',
    headers: { ...bearer(integrationKey), 'idempotency-key': `usage-${++references}` },
    payload: { email, credits, reference: `lesson-${references}` },
  });
  expect(response.statusCode, response.body).toBe(200);
};

/** Every credit held in the subtree, summed from the accounts (the hand calculation of creditsAvailable). */
async function heldInSubtree(organizationId: string) {
  const [row] = await rows<{ held: string }>(
    t.db,
    sql`select coalesce(sum(a.balance), 0)::text as held from credit_accounts a
        where (a.kind in ('shared', 'protected') and a.organization_id in (
                select descendant_id from organization_closure where ancestor_id = ${organizationId}))
           or (a.kind = 'user' and a.organization_id in (
                select descendant_id from organization_closure where ancestor_id = ${organizationId}))`,
  );
  return Number(row?.held);
}

/** The consumption the journal holds for the subtree over the UTC days [from, to). */
async function consumedInJournal(organizationId: string, from: string, to: string) {
  const [row] = await rows<{ n: string }>(
    t.db,
    sql`select coalesce(sum(e.amount), 0)::text as n from credit_entries e
        join credit_accounts a on a.id = e.account_id and a.kind = 'consumed'
        join credit_transactions x on x.id = e.transaction_id
        where a.organization_id in (select descendant_id from organization_closure where ancestor_id = ${organizationId})
          and x.created_at >= ${from}::date and x.created_at < ${to}::date`,
  );
  return Number(row?.n);
}

async function consumedAccountOf(organizationId: string) {
  await t.db.execute(
    sql`insert into credit_accounts (kind, organization_id) values ('consumed', ${organizationId}) on conflict do nothing`,
  );
  const [row] = await rows<{ id: string; shared: string }>(
    t.db,
    sql`select c.id, s.id as shared from credit_accounts c join credit_accounts s
          on s.organization_id = c.organization_id and s.kind = 'shared'
        where c.organization_id = ${organizationId} and c.kind = 'consumed'`,
  );
  return { consumed: row?.id as string, shared: row?.shared as string };
}

describe('credit use over time', () => {
  it('today’s moves and a consumption, for the district and a school: received, handed down, consumed', async () => {
    const { alpha, schoolA, schoolB } = t.world.orgs;
    const { teacher } = t.world.users;
    // The world minted 700 into Alpha today.
    await move('/api/credit/assign/organizations', {
      amount: 100,
      sourceOrganizationId: alpha,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [schoolA],
      toOrganizationPoolType: 'shared',
    });
    await move('/api/credit/assign/users', {
      amount: 30,
      userIds: [teacher.id],
      organizationId: schoolA,
      fromOrganizationPoolType: 'shared',
    });
    await move('/api/credit/reclaim/users', {
      amount: 5,
      userIds: [teacher.id],
      organizationId: schoolA,
      toOrganizationPoolType: 'protected',
    });
    await move('/api/credit/transfer/organizations', {
      amount: 10,
      sourceOrganizationId: schoolA,
      fromOrganizationPoolType: 'shared',
      targetOrganizationId: schoolB,
      toOrganizationPoolType: 'shared',
    });
    await consume(teacher.email, 20);

    const district = await usageOf(alpha, '?days=7');
    expect(district.organizationId).toBe(alpha);
    expect(district.to).toBe(today);
    expect(district.from).toBe(addDays(today, -6));
    expect(district.days.map((d) => d.date)).toEqual(
      Array.from({ length: 7 }, (_, i) => addDays(today, i - 6)),
    );
    expect(district.days.slice(0, 6).every((d) => !d.received && !d.handedDown && !d.consumed)).toBe(true);
    // Alpha: 700 minted; 100 to School A, which gave 30 to its teacher; the reclaim and the move between
    // two of its schools stay inside.
    expect(district.days[6]).toEqual({ date: today, received: 700, handedDown: 130, consumed: 20 });
    expect(district.forecast.creditsAvailable).toBe(700 - 20);
    expect(district.forecast.creditsAvailable).toBe(await heldInSubtree(alpha));
    // Only today was consumed: today is not a complete day.
    expect(district.forecast).toEqual({
      runsOutOn: null,
      windowDays: FORECAST_WINDOW_DAYS,
      meanDailyConsumption: 0,
      creditsAvailable: 680,
    });

    const school = await usageOf(schoolA, '?days=7');
    expect(school.days[6]).toEqual({ date: today, received: 100, handedDown: 30, consumed: 20 });
    expect(school.forecast.creditsAvailable).toBe(await heldInSubtree(schoolA));
    const other = await usageOf(schoolB, '?days=7');
    expect(other.days[6]).toEqual({ date: today, received: 10, handedDown: 0, consumed: 0 });
    expect(other.forecast.creditsAvailable).toBe(10);

    // The default is 90 days, all of them present.
    const standard = await usageOf(alpha);
    expect(standard.days).toHaveLength(90);
    expect(standard.from).toBe(addDays(today, -89));
  });

  it('the forecast: the mean of the 28 complete days before today, and the date it gives', async () => {
    const { schoolA, annex } = t.world.orgs;
    const teacher = t.world.users.teacher;
    await t.db.execute(
      sql`insert into memberships (user_id, organization_id, role) select id, ${annex}, 'user' from users
          where id = ${t.world.users.schoolAdmin.id}`,
    );
    await licence(t.db, annex);
    await move('/api/credit/assign/organizations', {
      amount: 400,
      sourceOrganizationId: t.world.orgs.alpha,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [annex],
      toOrganizationPoolType: 'shared',
    });
    const { consumed, shared } = await consumedAccountOf(annex);
    // 7 credits on each of the 28 days before today, 1,000 the day before the window, 3 today: only the
    // 28 days count.
    const post = (daysAgo: number, amount: number, hour = 12) =>
      postCreditTransaction(t.db, {
        action: 'consumption',
        actorId: null,
        lines: [
          { accountId: shared, amount: -amount },
          { accountId: consumed, amount },
        ],
        createdAt: new Date(`${addDays(today, -daysAgo)}T${String(hour).padStart(2, '0')}:00:00Z`),
      });
    const system = await sessionFor(t.db, t.world.users.systemAdmin.id);
    const mint = async (amount: number, toPool: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/credit/allocate/system',
        headers: bearer(system),
        payload: { organizationId: annex, amount, toPool, description: 'Top-up' },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await mint(1_000, 'shared');
    for (let d = 1; d <= 28; d++) await post(d, 7, d === 1 ? 23 : 0);
    await post(29, 1_000);
    await post(0, 3);

    const school = await usageOf(annex, '?days=30');
    expect(school.days.at(-1)?.consumed).toBe(3);
    expect(school.days.at(-2)?.consumed).toBe(7);
    expect(school.days[0]?.consumed).toBe(1_000);
    const windowFromJournal = await consumedInJournal(annex, addDays(today, -28), today);
    expect(windowFromJournal).toBe(7 * 28);
    expect(school.forecast.meanDailyConsumption).toBe(windowFromJournal / 28);
    const available = await heldInSubtree(annex);
    expect(school.forecast.creditsAvailable).toBe(available);
    expect(school.forecast.runsOutOn).toBe(addDays(today, Math.floor(available / 7)));

    // School A's subtree holds Annex: the same consumption, more credits.
    const parent = await usageOf(schoolA, '?days=7');
    expect(parent.forecast.meanDailyConsumption).toBe(7);
    expect(parent.forecast.creditsAvailable).toBe(await heldInSubtree(schoolA));
    expect(parent.forecast.creditsAvailable).toBeGreaterThan(available);
    expect(parent.forecast.runsOutOn).toBe(runsOutOn(today, parent.forecast.creditsAvailable, 7));

    // More than a year away: null. 7 a day for 366 days is 2,562 credits.
    await mint(2_600, 'protected');
    const later = await usageOf(annex, '?days=7');
    expect(later.forecast.creditsAvailable).toBeGreaterThan(7 * 366);
    expect(later.forecast.runsOutOn).toBeNull();
    expect(later.forecast.meanDailyConsumption).toBe(7);
    // The teacher's own balance counts for School A (a member), once.
    const own = Number(
      (
        await rows<{ b: string }>(
          t.db,
          sql`select balance::text as b from credit_accounts where id = ${await memberAccountId(t.db, teacher.id, t.world.orgs.schoolA)}`,
        )
      )[0]?.b,
    );
    expect(own).toBeGreaterThan(0);
  });

  it('refuses days outside 7–365 with a 400, and organizations outside the caller’s subtree with a 404', async () => {
    for (const days of ['6', '366', '0', 'abc', '7.5']) {
      const response = await usage(t.world.orgs.alpha, `?days=${days}`);
      expect(response.statusCode, days).toBe(400);
      expect(response.json().error).toBe('invalid_input');
      expect(Object.keys(response.json().details.fields)).toEqual(['days']);
    }
    expect((await usage(t.world.orgs.alpha, '?days=365')).json().days).toHaveLength(365);
    expect((await usage(t.world.orgs.beta)).statusCode).toBe(404);
    expect((await usage('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const teacher = await sessionFor(t.db, t.world.users.teacher.id);
    expect((await usage(t.world.orgs.schoolA, '', teacher)).statusCode).toBe(404);
    // Like every call naming an organization: an id that is not one names nothing.
    expect((await usage('not-a-uuid')).statusCode).toBe(404);
  });
});

describe('the calendar', () => {
  it('days across a month end, a leap day and a year end', () => {
    expect(usageDaySeries('2024-03-02', 7, []).days.map((d) => d.date)).toEqual([
      '2024-02-25',
      '2024-02-26',
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
      '2024-03-02',
    ]);
    const series = usageDaySeries('2026-01-01', 7, [
      { date: '2025-12-31', received: 1, handedDown: 2, consumed: 3 },
    ]);
    expect(series.from).toBe('2025-12-26');
    expect(series.days.at(-2)).toEqual({ date: '2025-12-31', received: 1, handedDown: 2, consumed: 3 });
    expect(series.days.at(-1)).toEqual({ date: '2026-01-01', received: 0, handedDown: 0, consumed: 0 });
    // The forecast from a month end: 31 January + 29 days is 1 March in a common year, 29 February in a leap year.
    expect(runsOutOn('2025-01-31', 290, 10)).toBe('2025-03-01');
    expect(runsOutOn('2024-01-31', 299, 10)).toBe('2024-02-29');
    expect(runsOutOn('2025-01-31', 3650, 10)).toBe('2026-01-31');
    expect(runsOutOn('2025-01-31', 3660, 10)).toBeNull();
    expect(runsOutOn('2025-01-31', 100, 0)).toBeNull();
  });
});
