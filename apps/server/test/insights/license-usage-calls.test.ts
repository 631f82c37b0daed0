import type { LicenseUsage } from '@allot/domain/insights';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { rollUpCreditUsage } from '../../src/features/insights/usage-rollup';
import { createPerson, createSchool, insertIntegrationKey, join, mint } from '../support/integration';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { giveLicense, sessionFor } from '../support/world';

/**
 * GET /api/organization/{id}/license-usage (issue 16 item 2; decision 014, "Seat use"): used and maximum
 * per licence and UTC day, carried forward from the last change, and the idle seats to reclaim.
 */
let t: TestApp;
let owner: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await sessionFor(t.db, t.world.users.owner.id);
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const dayOf = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);

async function usage(organizationId: string, query = '', token = owner) {
  return t.app.inject({
    method: 'GET',
    url: `/api/organization/${organizationId}/license-usage${query}`,
    headers: bearer(token),
  });
}
async function usageOf(organizationId: string, query = ''): Promise<LicenseUsage> {
  const response = await usage(organizationId, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LicenseUsage>();
}
const post = async (url: string, payload: object) => {
  const response = await t.app.inject({ method: 'POST', url, headers: bearer(owner), payload });
  expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
  return response;
};
/** Today's figures of each licence type. */
async function today(organizationId: string) {
  const answer = await usageOf(organizationId);
  return Object.fromEntries(
    answer.licenses.map((l) => {
      const last = l.days.at(-1);
      expect(last?.date).toBe(answer.to);
      return [l.licenseType, { used: last?.used, maxUsers: last?.maxUsers }];
    }),
  );
}

describe('seat use per day', () => {
  it('shows the seat changes made through the API in today’s figures', async () => {
    const { alpha } = t.world.orgs;
    await giveLicense(t.db, alpha, 'tle_teacher', 10);
    const school = await createSchool(t.db, 'Seat School', alpha);
    await post('/api/license/assign/organizations', {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [school],
      licenses: [
        { type: 'chorus', amount: 5 },
        { type: 'tle_teacher', amount: 3 },
      ],
    });
    expect(await today(school)).toEqual({
      chorus: { used: 0, maxUsers: 5 },
      tle_teacher: { used: 0, maxUsers: 3 },
    });
    const ids = Object.fromEntries((await usageOf(school)).licenses.map((l) => [l.licenseType, l.licenseId]));

    const add = async (email: string) =>
      (
        await post('/api/user/create', {
          email,
          name: email.split('@')[0],
          organizationId: school,
          role: 'user',
          licenseId: ids.chorus,
        })
      ).json<{ id: string }>().id;
    const ann = await add('ann@seats.test');
    const ben = await add('ben@seats.test');
    expect(await today(school)).toEqual({
      chorus: { used: 2, maxUsers: 5 },
      tle_teacher: { used: 0, maxUsers: 3 },
    });

    await post('/api/user/update/licenses', {
      userIds: [ann],
      licenseId: ids.tle_teacher,
      organizationId: school,
    });
    expect(await today(school)).toEqual({
      chorus: { used: 1, maxUsers: 5 },
      tle_teacher: { used: 1, maxUsers: 3 },
    });

    await post('/api/user/remove', { organizationId: school, userIds: [ben] });
    await post('/api/license/assign/organizations', {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [school],
      licenses: [{ type: 'chorus', amount: 2 }],
    });
    expect(await today(school)).toEqual({
      chorus: { used: 0, maxUsers: 7 },
      tle_teacher: { used: 1, maxUsers: 3 },
    });
    // The district's own licence gave 7 seats away: the district's figures moved too.
    expect((await today(alpha)).chorus).toEqual({ used: 0, maxUsers: 18 });
  });

  it('carries a day’s figures forward to the days without a change, and leaves out the days before the first', async () => {
    const school = await createSchool(t.db, 'History School', t.world.orgs.alpha);
    const licence = await giveLicense(t.db, school, 'chorus', 9);
    // Earlier days as the triggers would have kept them (the table is a derived record, not the ledger).
    await t.db.execute(sql`insert into license_seat_days (license_id, day, used, max_users)
      values (${licence.id}, ${dayOf(10)}, 4, 12), (${licence.id}, ${dayOf(5)}, 6, 12)`);

    const answer = await usageOf(school, '?days=14');
    expect(answer.from).toBe(dayOf(13));
    expect(answer.to).toBe(dayOf(0));
    const [entry] = answer.licenses;
    expect(entry?.licenseId).toBe(licence.id);
    expect(entry?.days).toEqual([
      ...[10, 9, 8, 7, 6].map((ago) => ({ date: dayOf(ago), used: 4, maxUsers: 12 })),
      ...[5, 4, 3, 2, 1].map((ago) => ({ date: dayOf(ago), used: 6, maxUsers: 12 })),
      { date: dayOf(0), used: 0, maxUsers: 9 },
    ]);

    // A window that starts after the first row takes the row before it for its first day (6 days ago: 10 days
    // ago's figures).
    const week = (await usageOf(school, '?days=7')).licenses[0]?.days;
    expect(week?.map((d) => [d.date, d.used])).toEqual([
      [dayOf(6), 4],
      ...[5, 4, 3, 2, 1].map((ago) => [dayOf(ago), 6]),
      [dayOf(0), 0],
    ]);
    // 90 days by default.
    expect((await usageOf(school)).from).toBe(dayOf(89));
  });

  it('refuses a number of days outside 7–365 with a 400 on the field', async () => {
    const { alpha } = t.world.orgs;
    for (const days of ['6', '366', 'ten', '7.5']) {
      const response = await usage(alpha, `?days=${days}`);
      expect(response.statusCode, days).toBe(400);
      expect(response.json().details.fields).toHaveProperty('days');
    }
    expect((await usage(alpha, '?days=365')).statusCode).toBe(200);
  });

  it('is for view_audit_logs where the caller sees the organization, 404 elsewhere', async () => {
    const { users, orgs } = t.world;
    expect((await usage(orgs.schoolA, '', await sessionFor(t.db, users.schoolAdmin.id))).statusCode).toBe(
      200,
    );
    expect((await usage(orgs.alpha, '', await sessionFor(t.db, users.schoolAdmin.id))).statusCode).toBe(404);
    expect((await usage(orgs.alpha, '', await sessionFor(t.db, users.betaOwner.id))).statusCode).toBe(404);
    expect((await usage(orgs.schoolA, '', await sessionFor(t.db, users.teacher.id))).statusCode).toBe(404);
  });
});

describe('idle seats', () => {
  it('lists members for 30 days holding a seat with no consumption in 30 days, never used first', async () => {
    const school = await createSchool(t.db, 'Idle School', t.world.orgs.alpha);
    const chorus = (await giveLicense(t.db, school, 'chorus', 10)).id;
    const member = async (name: string, joinedDaysAgo: number, seat: string | null = chorus) => {
      const person = await createPerson(t.db, `${name}@idle.test`);
      await join(t.db, person.id, school, seat);
      await t.db.execute(sql`update memberships set created_at = now() - make_interval(days => ${joinedDaysAgo})
        where user_id = ${person.id} and organization_id = ${school}`);
      return person;
    };
    const dana = await member('dana', 40); // never consumed
    const eli = await member('eli', 40); // consumes today, through the classroom product
    await member('fay', 5); // joined recently
    const gus = await member('gus', 60); // last consumed 45 days ago
    await member('hal', 40, null); // holds no seat
    const ivy = await member('ivy', 90); // last consumed 31 days ago
    const joy = await member('joy', 40); // consumes today, paid by the school's shared pool alone

    // Eli's consumption: the integration call, then the roll-up the jobs run.
    const key = await insertIntegrationKey(t.db, school);
    await mint(t.db, { userId: eli.id }, 10);
    const consumed = await t.app.inject({
      method: 'POST',
      url: '/api/integration/consume',
      headers: { ...bearer(key.key), 'idempotency-key': 'idle-eli' },
      payload: { email: eli.email, credits: 5, reference: 'lesson' },
    });
    expect(consumed.statusCode, consumed.body).toBe(200);
    // Joy has no credits of her own: the journal's lines name only the pool; the posting's actor names her.
    await mint(t.db, { sharedOf: school }, 10);
    const fromPool = await t.app.inject({
      method: 'POST',
      url: '/api/integration/consume',
      headers: { ...bearer(key.key), 'idempotency-key': 'idle-joy' },
      payload: { email: joy.email, credits: 3, reference: 'lesson' },
    });
    expect(fromPool.json()).toMatchObject({ fromOwn: 0, fromShared: 3 });
    await rollUpCreditUsage(t.db);
    const [eliRow] = await rows<{ day: string }>(
      t.db,
      sql`select to_char(last_consumed_on, 'YYYY-MM-DD') as day from member_consumption
          where user_id = ${eli.id} and organization_id = ${school}`,
    );
    expect(eliRow?.day).toBe(dayOf(0));
    // Consumption of the past: the roll-up's record of it, written directly (the API dates postings now).
    await t.db.execute(sql`insert into member_consumption (user_id, organization_id, last_consumed_on)
      values (${gus.id}, ${school}, ${dayOf(45)}), (${ivy.id}, ${school}, ${dayOf(31)})`);

    const [entry] = (await usageOf(school)).licenses;
    expect(entry?.idle).toEqual({
      count: 3,
      users: [
        { id: dana.id, name: 'dana', email: 'dana@idle.test', lastUsedOn: null },
        { id: gus.id, name: 'gus', email: 'gus@idle.test', lastUsedOn: dayOf(45) },
        { id: ivy.id, name: 'ivy', email: 'ivy@idle.test', lastUsedOn: dayOf(31) },
      ],
    });

    // Consumption 29 days ago is within the 30 days: Ivy is no longer idle.
    await t.db.execute(sql`update member_consumption set last_consumed_on = ${dayOf(29)}
      where user_id = ${ivy.id} and organization_id = ${school}`);
    expect((await usageOf(school)).licenses[0]?.idle.users.map((u) => u.email)).toEqual([
      'dana@idle.test',
      'gus@idle.test',
    ]);
  });
});
