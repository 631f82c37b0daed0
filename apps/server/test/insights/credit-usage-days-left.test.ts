import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import {
  organizationPoolAccountId,
  postCreditTransaction,
  systemAccountId,
} from '../../src/features/credits/journal';
import { addDays } from '../../src/features/insights/credit-usage-days';
import { createSchool } from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/*
 * The sub-organizations list's `daysLeft` (decision 014, "Days left"): each row's figure is the one the
 * credit-usage forecast of that organization gives, and the list sorts by it with the nulls last.
 */
let t: TestApp;
let owner = '';
let today = '';
const schools: Record<string, string> = {};

async function history(organizationId: string, minted: number, perDay: number) {
  const system = await systemAccountId(t.db);
  const shared = await organizationPoolAccountId(t.db, organizationId, 'shared');
  await t.db.execute(
    sql`insert into credit_accounts (kind, organization_id) values ('consumed', ${organizationId}) on conflict do nothing`,
  );
  const [consumed] = await rows<{ id: string }>(
    t.db,
    sql`select id from credit_accounts where organization_id = ${organizationId} and kind = 'consumed'`,
  );
  const day = (ago: number) => new Date(`${addDays(today, -ago)}T09:00:00Z`);
  await postCreditTransaction(t.db, {
    action: 'system_allocation',
    actorId: null,
    lines: [
      { accountId: system, amount: -minted },
      { accountId: shared, amount: minted },
    ],
    createdAt: day(40),
  });
  if (perDay === 0) return;
  for (let ago = 1; ago <= 28; ago++) {
    await postCreditTransaction(t.db, {
      action: 'consumption',
      actorId: null,
      lines: [
        { accountId: shared, amount: -perDay },
        { accountId: consumed?.id as string, amount: perDay },
      ],
      createdAt: day(ago),
    });
  }
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await sessionFor(t.db, t.world.users.owner.id);
  today = new Date().toISOString().slice(0, 10);
  const { alpha } = t.world.orgs;
  // 720 left at 10 a day: 72 days. 20 left at 10 a day: 2. 4,972 at 1 a day: over a year. Never consumed.
  for (const [name, minted, perDay] of [
    ['Days Oak', 1_000, 10],
    ['Days Pine', 300, 10],
    ['Days Elm', 5_000, 1],
    ['Days Ash', 50, 0],
    ['Days Fir', 600, 12],
  ] as const) {
    schools[name] = await createSchool(t.db, name, alpha);
    await history(schools[name] as string, minted, perDay);
  }
});
afterAll(() => t.close());

type Row = { id: string; name: string; daysLeft: number | null };
const list = async (query: string) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/organization/${t.world.orgs.alpha}/sub-organizations${query}`,
    headers: bearer(owner),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: Row[]; pagination: { total: number } }>();
};

/** Days left as the forecast of GET credit-usage gives them: the days between today and runsOutOn. */
async function forecastDaysLeft(id: string): Promise<number | null> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/organization/${id}/credit-usage?days=7`,
    headers: bearer(owner),
  });
  const { runsOutOn } = response.json<{ forecast: { runsOutOn: string | null } }>().forecast;
  if (runsOutOn === null) return null;
  return Math.round((Date.parse(runsOutOn) - Date.parse(today)) / 86_400_000);
}

describe('days left in the sub-organizations list', () => {
  it('each row carries the days its forecast gives', async () => {
    const { data } = await list('?limit=100');
    expect(data.length).toBe(7);
    for (const row of data) expect(row.daysLeft, row.name).toBe(await forecastDaysLeft(row.id));
    const byName = new Map(data.map((r) => [r.name, r.daysLeft]));
    expect(byName.get('Days Oak')).toBe(72);
    expect(byName.get('Days Pine')).toBe(2);
    expect(byName.get('Days Fir')).toBe(Math.floor((600 - 12 * 28) / 12));
    expect(byName.get('Days Elm')).toBeNull();
    expect(byName.get('Days Ash')).toBeNull();
  });

  it('sorts by days left, the nulls last in both orders, then by name; pages and searches alike', async () => {
    const up = await list('?key=daysLeft&order=asc&limit=100');
    expect(up.data.map((r) => r.name)).toEqual([
      'Days Pine',
      'Days Fir',
      'Days Oak',
      'Alpha School A',
      'Alpha School B',
      'Days Ash',
      'Days Elm',
    ]);
    expect(up.pagination.total).toBe(7);
    const down = await list('?key=daysLeft&order=desc&limit=100');
    expect(down.data.map((r) => r.name)).toEqual([
      'Days Oak',
      'Days Fir',
      'Days Pine',
      'Days Elm',
      'Days Ash',
      'Alpha School B',
      'Alpha School A',
    ]);
    const second = await list('?key=daysLeft&order=asc&limit=2&page=2');
    expect(second.data.map((r) => r.name)).toEqual(['Days Oak', 'Alpha School A']);
    expect(second.pagination.total).toBe(7);
    const searched = await list('?key=daysLeft&order=asc&search=days');
    expect(searched.data.map((r) => r.name)).toEqual([
      'Days Pine',
      'Days Fir',
      'Days Oak',
      'Days Ash',
      'Days Elm',
    ]);
    expect(searched.pagination.total).toBe(5);
    expect(searched.data.find((r) => r.name === 'Days Oak')?.daysLeft).toBe(72);
  });

  it('is refused by the organization search, which keeps its sort keys', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/organization/search?key=daysLeft',
      headers: bearer(owner),
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().details.fields)).toEqual(['key']);
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${t.world.orgs.beta}/sub-organizations?key=daysLeft`,
      headers: bearer(owner),
    });
    expect(other.statusCode).toBe(404);
  });
});
