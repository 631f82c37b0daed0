import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/**
 * `GET /api/organization/{id}` looks up the caller's session in its own query, and the credit and seat moves in
 * their transaction's first statement, sent with BEGIN (one round trip less each: issue 32). Every session rule of
 * CONTRACT §3 holds there as on any other call, and a refusal of the request itself (an invalid query or
 * body, an id that is no uuid) is still a 401 for a token that is not live.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const read = (token: string, path = `${t.world.orgs.schoolA}?credits=true`) =>
  t.app.inject({ method: 'GET', url: `/api/organization/${path}`, headers: bearer(token) });
const sessionOf = async (userId: string) => {
  const [row] = await rows<{ last_seen_at: string; expires_at: string; days_left: number }>(
    t.db,
    sql`select last_seen_at::text, expires_at::text, extract(epoch from expires_at - now()) / 86400 as days_left
        from sessions where user_id = ${userId} and revoked_at is null order by created_at desc limit 1`,
  );
  return row;
};

describe('a read that looks up its own session', () => {
  it('answers the organization to a live session, and 401 once it is signed out', async () => {
    const token = await sessionFor(t.db, t.world.users.owner.id);
    const answer = await read(token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ id: t.world.orgs.schoolA, credits: expect.any(Object) });
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    const after = await read(token);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('unauthorized');
  });

  it('writes nothing for a session used within the minute, and slides its expiry after that', async () => {
    const userId = t.world.users.admin.id;
    const token = await sessionFor(t.db, userId);
    await t.db.execute(sql`update sessions set last_seen_at = now() - interval '10 seconds',
      expires_at = now() + interval '1 hour' where user_id = ${userId}`);
    const before = await sessionOf(userId);
    expect((await read(token)).statusCode).toBe(200);
    const after = await sessionOf(userId);
    expect([after?.last_seen_at, after?.expires_at]).toEqual([before?.last_seen_at, before?.expires_at]);

    await t.db.execute(
      sql`update sessions set last_seen_at = now() - interval '2 minutes' where user_id = ${userId}`,
    );
    expect((await read(token)).statusCode).toBe(200);
    expect(Number((await sessionOf(userId))?.days_left)).toBeGreaterThan(6.9);

    await t.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${userId}`,
    );
    expect((await read(token)).statusCode).toBe(401);
  });

  it('answers a system admin anywhere, and 404 for what the caller cannot see', async () => {
    const admin = await sessionFor(t.db, t.world.users.systemAdmin.id);
    expect((await read(admin, `${t.world.orgs.beta}?permissionsAndRole=true`)).json()).toMatchObject({
      permissionsAndRole: { role: { name: 'system_admin' } },
    });
    const owner = await sessionFor(t.db, t.world.users.owner.id);
    expect((await read(owner, t.world.orgs.beta)).statusCode).toBe(404);
    const teacher = await sessionFor(t.db, t.world.users.teacher.id);
    expect((await read(teacher)).statusCode).toBe(404);
  });

  it('is 401 for a token that is not live whatever else is wrong with the request', async () => {
    const live = await sessionFor(t.db, t.world.users.owner.id);
    const dead = 'not-a-live-token';
    expect((await read(dead, 'not-a-uuid')).statusCode).toBe(401);
    expect((await read(live, 'not-a-uuid')).statusCode).toBe(404);
    const badQuery = `${t.world.orgs.schoolA}?credits=perhaps`;
    expect((await read(dead, badQuery)).statusCode).toBe(401);
    expect((await read(live, badQuery)).statusCode).toBe(400);
    const noToken = await t.app.inject({ method: 'GET', url: `/api/organization/${badQuery}` });
    expect(noToken.statusCode).toBe(401);
  });
});

describe('a credit move that looks up its session in its own transaction', () => {
  const move = (token: string, payload: object, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/credit/transfer/pools',
      headers: { ...bearer(token), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });
  const body = (amount = 5) => ({
    amount,
    organizationId: t.world.orgs.alpha,
    fromPool: 'shared',
    toPool: 'protected',
  });
  const pools = async () => {
    const [row] = await rows<{ shared: number; protected: number }>(
      t.db,
      sql`select shared_credits::int as shared, protected_credits::int as protected from organizations
          where id = ${t.world.orgs.alpha}`,
    );
    return row;
  };
  beforeAll(async () => {
    const admin = await sessionFor(t.db, t.world.users.systemAdmin.id);
    const allocated = await t.app.inject({
      method: 'POST',
      url: '/api/credit/allocate/system',
      headers: bearer(admin),
      payload: { organizationId: t.world.orgs.alpha, amount: 100, toPool: 'shared', description: 'Start' },
    });
    expect(allocated.statusCode).toBe(200);
  });

  it('moves credits for a live session, and nothing once it is signed out', async () => {
    const token = await sessionFor(t.db, t.world.users.owner.id);
    const before = await pools();
    const moved = await move(token, body());
    expect(moved.statusCode).toBe(200);
    expect(await pools()).toEqual({
      shared: (before?.shared ?? 0) - 5,
      protected: (before?.protected ?? 0) + 5,
    });
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    const after = await move(token, body());
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('unauthorized');
    expect(await pools()).toEqual({
      shared: (before?.shared ?? 0) - 5,
      protected: (before?.protected ?? 0) + 5,
    });
  });

  it('is 401 for a token that is not live whatever is wrong with the body, and keeps no answer for its key', async () => {
    const live = await sessionFor(t.db, t.world.users.owner.id);
    const dead = 'not-a-live-token';
    const invalid = { ...body(), toPool: 'shared' };
    expect((await move(dead, invalid)).statusCode).toBe(401);
    expect((await move(live, invalid)).statusCode).toBe(400);
    const keys = async () =>
      (await rows<{ n: number }>(t.db, sql`select count(*)::int as n from idempotency_keys`))[0]?.n;
    const kept = await keys();
    expect((await move(dead, body(), 'dead-key-1')).statusCode).toBe(401);
    expect(await keys()).toBe(kept);
    const first = await move(live, body(1), 'live-key-1');
    const again = await move(live, body(1), 'live-key-1');
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it('slides the expiry of a session last used over a minute ago, with the move', async () => {
    const userId = t.world.users.admin.id;
    const token = await sessionFor(t.db, userId);
    await t.db.execute(sql`update sessions set last_seen_at = now() - interval '2 minutes',
      expires_at = now() + interval '1 hour' where user_id = ${userId}`);
    expect((await move(token, body(1))).statusCode).toBe(200);
    expect(Number((await sessionOf(userId))?.days_left)).toBeGreaterThan(6.9);
  });
});

describe('a seat move that looks up its session in its own transaction', () => {
  const assign = (token: string, amount: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/license/assign/organizations',
      headers: bearer(token),
      payload: {
        sourceOrganizationId: t.world.orgs.alpha,
        targetOrganizationIds: [t.world.orgs.schoolB],
        licenses: [{ type: 'chorus', amount }],
      },
    });
  const seatsOfSchoolB = async () =>
    (
      await rows<{ seats: number }>(
        t.db,
        sql`select coalesce(sum(max_users), 0)::int as seats from licenses where organization_id = ${t.world.orgs.schoolB}`,
      )
    )[0]?.seats;

  it('hands seats down for a live session, nothing once it is signed out, and 401 for a bad body then', async () => {
    const token = await sessionFor(t.db, t.world.users.owner.id);
    const before = await seatsOfSchoolB();
    expect((await assign(token, 2)).statusCode).toBe(200);
    expect(await seatsOfSchoolB()).toBe((before ?? 0) + 2);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect((await assign(token, 2)).statusCode).toBe(401);
    expect((await assign(token, -1)).statusCode).toBe(401);
    expect(await seatsOfSchoolB()).toBe((before ?? 0) + 2);
    const live = await sessionFor(t.db, t.world.users.owner.id);
    expect((await assign(live, -1)).statusCode).toBe(400);
  });
});
