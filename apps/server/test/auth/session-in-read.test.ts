import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { sessionFor } from '../support/world';

/**
 * `GET /api/organization/{id}` looks up the caller's session in its own query (one round trip: issue 32).
 * Every session rule of CONTRACT §3 holds there as on any other call, and a refusal of the request itself
 * (an invalid query, an id that is no uuid) is still a 401 for a token that is not live.
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
